/**
 * Reads of agent runs and chat (sixth fork): the run record joins the consensus record (status,
 * steps, settlement) with the `agentRuns` rows of its transactions; lists come from the indexes.
 */
import type { AgentRun, AgentRunStatus } from '../core/state.ts';
import type { RequestRow, StepRow } from '../projections/agentRuns.ts';
import { conversationRecord, type Conversation, type ConversationRow, type Turn, chatProjection } from '../projections/chat.ts';
import type { ReadPorts } from '../node/ports.ts';
import { agentRunsProjection } from '../projections/agentRuns.ts';
import { RUNS } from '../core/tx/agent/agent.ts';
import { orderedPage } from './orderedPage.ts';
import { readRecord } from './stateReads.ts';

/** The spec's agent run record. */
export interface RunRecord {
  agentRunId: string;
  conversationId: string;
  submitter: string;
  prompt: string;
  toolsWhitelist: string[];
  maxFee: string;
  maxSteps: number;
  status: AgentRunStatus;
  minerAddress: string | null;
  modelInfo: string | null;
  hardwareTier: string | null;
  stepCount: number;
  totalTokensOut: number;
  minerReward: string;
  userRefund: string;
  networkFee: string;
  finalAnswerInline: string | null;
  submittedAt: number;
  claimedAt: number | null;
  finishedAt: number | null;
  blockIndex: number;
}

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
    const req = (await (await this.runRows()).get(`q!${id}`)) as RequestRow | undefined;
    const claim = (await (await this.runRows()).get(`c!${id}`)) as { modelInfo: string; hardwareTier: string } | undefined;
    const fin = (await (await this.runRows()).get(`f!${id}`)) as { finalAnswerInline: string } | undefined;
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
    for await (const v of (await this.runRows()).values({ gte: `p!${id}!`, lt: `p!${id}!~` })) {
      const { txHash: _, ...step } = v as StepRow;
      out.push(step);
    }
    return out;
  }

  /** Runs of an index prefix (`s!<status>`, `u!<submitter>`, `m!<miner>`), `limit` of them after skipping `offset`. */
  async runsBy(prefix: string, limit: number, offset: number, oldestFirst: boolean): Promise<RunRecord[]> {
    const out: RunRecord[] = [];
    for (const id of await orderedPage<string>(await this.runRows(), prefix, limit, offset, !oldestFirst)) {
      const r = await this.run(id);
      if (r) out.push(r);
    }
    return out;
  }

  /** A conversation record, or undefined (its row: memory holds a bounded cache only). */
  async conversation(id: string): Promise<Conversation | undefined> {
    const row = (await (await this.chatRows()).get(`k!${id}`)) as ConversationRow | undefined;
    return row && conversationRecord(row);
  }

  /** A conversation's latest `limit` turns before its `offset` latest ones, in chronological order. */
  async turns(id: string, limit: number, offset: number): Promise<Turn[]> {
    return (await orderedPage<Turn>(await this.chatRows(), `t!${id}`, limit, offset, true)).reverse();
  }

  /** Distinct conversations an address wrote in, in order of its first turn in each: `limit` from `offset`. */
  conversationsOf(author: string, limit: number, offset: number): Promise<string[]> {
    return this.chatRows().then((rows) => orderedPage<string>(rows, `a!${author}`, limit, offset, false));
  }
}
