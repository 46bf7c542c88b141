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
import { AGENT_RUN_STATUSES, RUNS } from '../core/tx/agent/agent.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

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

const openKey = (runId: string): string => `!o!${runId}`;

/** Row key of a step. */
const stepKey = (runId: string, i: number): string => `p!${runId}!${i.toString().padStart(3, '0')}`;

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
      const id = tx.agentRunId as string;
      if (tx.type === 'AGENT_REQUEST') {
        const order = `${heightKey(block.index)}!${i.toString().padStart(5, '0')}`;
        orders.set(id, order);
        const row: RequestRow = {
          prompt: tx.prompt as string,
          toolsWhitelist: tx.toolsWhitelist as string[],
          modelHint: typeof tx.modelHint === 'string' ? tx.modelHint : null,
          blockIndex: block.index,
          order,
        };
        ops.push({ type: 'put', key: `q!${id}`, value: row }, { type: 'put', key: `u!${tx.from}!${order}`, value: id });
      } else if (tx.type === 'AGENT_CLAIM') {
        ops.push({
          type: 'put',
          key: `c!${id}`,
          value: { modelInfo: tx.modelInfo, hardwareTier: tx.hardwareTier, txHash: tx.hash, blockIndex: block.index },
        });
      } else if (tx.type === 'AGENT_STEP') {
        const step: StepRow = {
          stepIndex: tx.stepIndex as number,
          outputTokens: tx.outputTokens as number,
          outputHash: tx.outputHash as string,
          toolCalls: tx.toolCalls as StepRow['toolCalls'],
          timestamp: tx.timestamp,
          blockIndex: block.index,
          txHash: tx.hash,
        };
        ops.push({ type: 'put', key: stepKey(id, step.stepIndex), value: step });
      } else if (tx.type === 'AGENT_FINISH') {
        ops.push({
          type: 'put',
          key: `f!${id}`,
          value: { outcome: tx.outcome, finalAnswerInline: tx.finalAnswerInline, txHash: tx.hash, blockIndex: block.index },
        });
      }
    });
    for (const [id, run] of diff.records.runs) {
      const known = s.byId.get(id);
      const order = known?.order ?? orders.get(id) ?? `${heightKey(block.index)}!99999`;
      if (known) ops.push({ type: 'del', key: `s!${known.status}!${order}` });
      const claimed = known?.claimed ?? false;
      if (run.minerAddress && !claimed) ops.push({ type: 'put', key: `m!${run.minerAddress}!${order}`, value: id });
      ops.push({ type: 'put', key: `s!${run.status}!${order}`, value: id });
      if (RUNS.isOpen!(run)) {
        const open: OpenRun = { order, status: run.status, claimed: claimed || run.minerAddress !== undefined };
        s.byId.set(id, open);
        ops.push(known ? { type: 'put', key: openKey(id), value: open } : { type: 'put', key: openKey(id), value: open, fresh: true });
      } else if (known) {
        // Settled: it never changes again, so it leaves memory (its index rows stay).
        s.byId.delete(id);
        ops.push({ type: 'del', key: openKey(id) });
      }
    }
    return { state: s, ops };
  },
  async restore(rows) {
    const s: AgentRunsState = { byId: new Map() };
    // The open runs' rows sort first; the history after them is never read here.
    for await (const [key, value] of rows) {
      if (!key.startsWith('!o!')) break;
      s.byId.set(key.slice(3), value as OpenRun);
    }
    return s;
  },
};
