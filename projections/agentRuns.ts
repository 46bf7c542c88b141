/**
 * The agent run read model (sixth fork). Consensus keeps each run's record (status, steps,
 * settlement); this projection keeps what the transactions carried besides it and the indexes
 * the `/api/agent/v6/` routes read, folded purely from each block:
 *
 * - `q!<runId>` AGENT_REQUEST details (prompt, toolsWhitelist, blockIndex, order);
 * - `c!<runId>` AGENT_CLAIM details (modelInfo, hardwareTier); `f!<runId>` AGENT_FINISH details;
 * - `p!<runId>!<stepIndex>` each AGENT_STEP;
 * - `s!<status>!<order>`, `u!<submitter>!<order>`, `m!<miner>!<order>` -> runId: indexes, where
 *   `order` = `<height>!<position>` of the request. Status changes come from the diff's run
 *   records, so timeouts and insufficient_funds (no transaction of their own) are seen too.
 *
 * - `!o!<runId>` -> {order, status, claimed}: each open run (pending, claimed, running), deleted
 *   when it settles. These rows sort first: a restart reads them and stops.
 *
 * In memory: the open runs only (a settled run never changes again), so memory and restarts
 * cost what is open, not the history.
 */
import { heightKey } from '../core/encoding.ts';
import type { AgentRunStatus } from '../core/state.ts';
import { AGENT_CLAIM, AGENT_FINISH, AGENT_REQUEST, AGENT_RUN_STATUSES, AGENT_STEP, RUNS } from '../core/tx/agent/agent.ts';
import { isTx } from '../core/tx/handler.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { row, rowGroup } from './rows.ts';

/** The eight run statuses (core's list). */
export const RUN_STATUSES: readonly AgentRunStatus[] = AGENT_RUN_STATUSES;

/** AGENT_REQUEST details. */
export interface RequestRow {
  prompt: string;
  toolsWhitelist: string[];
  modelHint: string | null;
  blockIndex: number;
  order: string;
}

/** One step as served. */
export interface StepRow {
  stepIndex: number;
  outputTokens: number;
  outputHash: string;
  toolCalls: { name: string; argsHash: string; resultHash: string; durationMs: number; ok: boolean }[];
  timestamp: number;
  blockIndex: number;
  txHash: string;
}

/** AGENT_CLAIM details. */
interface ClaimRow {
  modelInfo: string;
  hardwareTier: string;
  txHash: string;
  blockIndex: number;
}

/** AGENT_FINISH details. */
interface FinishRow {
  outcome: 'completed' | 'failed' | 'cancelled';
  finalAnswerInline: string;
  txHash: string;
  blockIndex: number;
}

/** An open run's place in the indexes. */
interface OpenRun {
  order: string;
  status: AgentRunStatus;
  claimed: boolean;
}

/** In-memory index: the open runs. */
export interface AgentRunsState {
  byId: Map<string, OpenRun>;
}

/** The indexes of runs: by status, by submitter, by miner. */
export type RunIndex = 'status' | 'submitter' | 'miner';
const INDEX_PREFIX: Record<RunIndex, string> = { status: 's', submitter: 'u', miner: 'm' };

/** `q!<runId>`, `c!<runId>`, `f!<runId>`: the request's, claim's and finish's details. */
export const requestRow = row<RequestRow>('q!');
export const claimRow = row<ClaimRow>('c!');
export const finishRow = row<FinishRow>('f!');
/** `p!<runId>!<stepIndex, 3 digits>`: a run's steps (read up to `p!<runId>!~`). */
export const stepRows = rowGroup<StepRow, string, number>(
  (runId) => `p!${runId}!`,
  (i) => i.toString().padStart(3, '0'),
  '~',
);
/** `s!<status>!<order>`, `u!<submitter>!<order>`, `m!<miner>!<order>` -> runId (read up to `<prefix>!~`). */
export const runIndexRows = rowGroup<string, [RunIndex, string]>(([index, key]) => `${INDEX_PREFIX[index]}!${key}!`, String, '~');
/** `!o!<runId>`: an open run (these rows sort first). */
const openRow = row<OpenRun>('!o!');

/** Agent run details and indexes. */
export const agentRunsProjection: Projection<AgentRunsState> = {
  name: 'agentRuns',
  // 2: only open runs in memory, restored from their own rows.
  version: 2,
  init: () => ({ byId: new Map() }),
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const { block, diff } = ev;
    const orders = new Map<string, string>();
    ev.txs.forEach((tx, i) => {
      if (isTx(tx, AGENT_REQUEST)) {
        const id = tx.agentRunId;
        const order = `${heightKey(block.index)}!${i.toString().padStart(5, '0')}`;
        orders.set(id, order);
        const row: RequestRow = {
          prompt: tx.prompt,
          toolsWhitelist: tx.toolsWhitelist,
          modelHint: typeof tx.modelHint === 'string' ? tx.modelHint : null,
          blockIndex: block.index,
          order,
        };
        ops.push(requestRow.put(id, row), runIndexRows.put(['submitter', tx.from], order, id));
      } else if (isTx(tx, AGENT_CLAIM)) {
        const { modelInfo, hardwareTier } = tx;
        ops.push(claimRow.put(tx.agentRunId, { modelInfo, hardwareTier, txHash: tx.hash, blockIndex: block.index }));
      } else if (isTx(tx, AGENT_STEP)) {
        const { stepIndex, outputTokens, outputHash, toolCalls, timestamp } = tx;
        const step: StepRow = { stepIndex, outputTokens, outputHash, toolCalls, timestamp, blockIndex: block.index, txHash: tx.hash };
        ops.push(stepRows.put(tx.agentRunId, step.stepIndex, step));
      } else if (isTx(tx, AGENT_FINISH)) {
        const { outcome, finalAnswerInline } = tx;
        ops.push(finishRow.put(tx.agentRunId, { outcome, finalAnswerInline, txHash: tx.hash, blockIndex: block.index }));
      }
    });
    for (const [id, run] of diff.records.runs) {
      const known = s.byId.get(id);
      const order = known?.order ?? orders.get(id) ?? `${heightKey(block.index)}!99999`;
      if (known) ops.push(runIndexRows.del(['status', known.status], order));
      const claimed = known?.claimed ?? false;
      if (run.minerAddress && !claimed) ops.push(runIndexRows.put(['miner', run.minerAddress], order, id));
      ops.push(runIndexRows.put(['status', run.status], order, id));
      if (RUNS.isOpen(run)) {
        const open: OpenRun = { order, status: run.status, claimed: claimed || run.minerAddress !== undefined };
        s.byId.set(id, open);
        ops.push(openRow.put(id, open, !known));
      } else if (known) {
        // Settled: it never changes again, so it leaves memory (its index rows stay).
        s.byId.delete(id);
        ops.push(openRow.del(id));
      }
    }
    return { state: s, ops };
  },
  async restore(rows) {
    const s: AgentRunsState = { byId: new Map() };
    // The open runs' rows sort first; the history after them is never read here.
    for await (const [key, value] of rows) {
      if (!openRow.owns(key)) break;
      s.byId.set(openRow.idOf(key), openRow.value(value));
    }
    return s;
  },
};
