/**
 * Reads of agent runs and chat (sixth fork): the run record joins the consensus record (status,
 * steps, settlement) with the `agentRuns` rows of its transactions; lists come from the indexes.
 */
import type { AgentRun } from '../core/state.ts';
import {
  authorConversationRows,
  chatProjection,
  type Conversation,
  conversationRecord,
  conversationRow,
  type Turn,
  turnRows,
} from '../projections/chat.ts';
import type { ReadPorts } from '../node/ports.ts';
import {
  agentRunsProjection,
  claimRow,
  finishRow,
  requestRow,
  type RunIndex,
  runIndexRows,
  type StepRow,
  stepRows,
} from '../projections/agentRuns.ts';
import { RUNS } from '../core/tx/agent/agent.ts';
import { orderedPage } from './orderedPage.ts';
import { readRecord } from './stateReads.ts';
import type { Components } from './schemas/records.ts';

/** The spec's agent run record (its schema: queries/schemas/records.ts). */
export type RunRecord = Components['RunRecord'];

/** Agent and chat query facade. */
export class AgentQueries {
  private readonly ports: ReadPorts;

  constructor(ports: ReadPorts) {
    this.ports = ports;
  }

  private runRows() {
    return this.ports.models.readable(agentRunsProjection);
  }

  private chatRows() {
    return this.ports.models.readable(chatProjection);
  }

  /** True when the chain knows run `id`. */
  async hasRun(id: string): Promise<boolean> {
    return (await readRecord(this.ports, RUNS, id)) !== undefined;
  }

  /** A run record, or undefined. */
  async run(id: string): Promise<RunRecord | undefined> {
    const r: AgentRun | undefined = await readRecord(this.ports, RUNS, id);
    if (!r) return undefined;
    const req = await requestRow.get(await this.runRows(), id);
    const claim = await claimRow.get(await this.runRows(), id);
    const fin = await finishRow.get(await this.runRows(), id);
    return {
      agentRunId: r.agentRunId,
      conversationId: r.conversationId,
      submitter: r.submitter,
      prompt: req?.prompt ?? '',
      toolsWhitelist: req?.toolsWhitelist ?? [],
      maxFee: r.maxFee,
      maxSteps: r.maxSteps,
      status: r.status,
      minerAddress: r.minerAddress ?? null,
      modelInfo: claim?.modelInfo ?? null,
      hardwareTier: claim?.hardwareTier ?? null,
      stepCount: r.stepCount,
      totalTokensOut: r.totalTokensOut,
      minerReward: r.minerReward,
      userRefund: r.userRefund,
      networkFee: r.networkFee,
      finalAnswerInline: fin?.finalAnswerInline ?? null,
      submittedAt: r.submittedAt,
      claimedAt: r.claimedAt ?? null,
      finishedAt: r.finishedAt ?? null,
      blockIndex: req?.blockIndex ?? 0,
    };
  }

  /** A run's steps in step order. */
  async steps(id: string): Promise<Omit<StepRow, 'txHash'>[]> {
    const out: Omit<StepRow, 'txHash'>[] = [];
    for await (const v of stepRows.values(await this.runRows(), id)) {
      const { txHash: _, ...step } = v;
      out.push(step);
    }
    return out;
  }

  /** Runs of one status, submitter or miner (`key`), `limit` of them after skipping `offset`. */
  async runsBy(index: RunIndex, key: string, limit: number, offset: number, oldestFirst: boolean): Promise<RunRecord[]> {
    const out: RunRecord[] = [];
    for (const id of await orderedPage(await this.runRows(), runIndexRows, [index, key], limit, offset, !oldestFirst)) {
      const r = await this.run(id);
      if (r) out.push(r);
    }
    return out;
  }

  /** A conversation record, or undefined (its row: memory holds a bounded cache only). */
  async conversation(id: string): Promise<Conversation | undefined> {
    const row = await conversationRow.get(await this.chatRows(), id);
    return row && conversationRecord(row);
  }

  /** A conversation's latest `limit` turns before its `offset` latest ones, in chronological order. */
  async turns(id: string, limit: number, offset: number): Promise<Turn[]> {
    return (await orderedPage(await this.chatRows(), turnRows, id, limit, offset, true)).reverse();
  }

  /** Distinct conversations an address wrote in, in order of its first turn in each: `limit` from `offset`. */
  conversationsOf(author: string, limit: number, offset: number): Promise<string[]> {
    return this.chatRows().then((rows) => orderedPage(rows, authorConversationRows, author, limit, offset, false));
  }
}
