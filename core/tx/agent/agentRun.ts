/** The agent run record: its statuses and the `runs` kind the agent family owns. */
import { defineRecord } from '../../record.ts';

/** The eight run statuses (see agentMachine.ts for the transitions). */
export const AGENT_RUN_STATUSES = [
  'pending',
  'claimed',
  'running',
  'completed',
  'failed',
  'timeout',
  'insufficient_funds',
  'cancelled',
] as const;
/** An agent run status. */
export type AgentRunStatus = (typeof AGENT_RUN_STATUSES)[number];
const OPEN_RUN: readonly AgentRunStatus[] = ['pending', 'claimed', 'running'];

/** An agent run's consensus record. */
export interface AgentRun {
  agentRunId: string;
  conversationId: string;
  submitter: string;
  maxFee: string;
  maxSteps: number;
  status: AgentRunStatus;
  submittedAt: number;
  requestTxHash: string;
  minerAddress?: string;
  minerId?: string;
  claimedAt?: number;
  lastActivityAt?: number;
  stepCount: number;
  stepTokensOut: number;
  totalTokensOut: number;
  networkFee: string;
  minerReward: string;
  userRefund: string;
  finishedAt?: number;
}

/** Agent run records, `r:<agentRunId>`; open (able to time out) until settled. */
export const RUNS = defineRecord<AgentRun>()('runs', {
  prefix: 'r',
  id: 'agentRunId',
  doc: 'agent run',
  isOpen: (r) => OPEN_RUN.includes(r.status),
});
