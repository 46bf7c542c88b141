/**
 * The agent run state machine. AGENT_TRANSITIONS is the whole table; anything else is refused
 * with VALIDATION_FAILED naming the current status. The protocol reference prints it.
 */
import { TREASURY_ADDRESS } from '../../address.ts';
import { AGENT_CLAIM_TIMEOUT_MS, AGENT_RUN_TIMEOUT_MS } from '../../economics.ts';
import type { TxState } from '../../txState.ts';
import { present } from '../../errors.ts';
import { refuse } from '../handler.ts';
import { RUNS, type AgentRun, type AgentRunStatus } from './agentRun.ts';
import { transitionRow, transitionTable, type Transition } from '../machine.ts';

/** What moves a run. */
export type AgentTrigger =
  | 'AGENT_REQUEST'
  | 'AGENT_CLAIM'
  | 'AGENT_STEP'
  | 'AGENT_FINISH completed'
  | 'AGENT_FINISH failed'
  | 'AGENT_FINISH cancelled'
  | 'timeout';

/** One row of the table. */
export type AgentTransition = Transition<AgentRunStatus, AgentTrigger>;

/** Every allowed transition. */
export const AGENT_TRANSITIONS: readonly AgentTransition[] = [
  {
    from: null,
    on: 'AGENT_REQUEST',
    to: 'pending',
    when: 'maxFee escrowed from the submitter; agentRunId = SHA-256(from + nonce + prompt[:256]) is unused',
  },
  { from: 'pending', on: 'AGENT_CLAIM', to: 'claimed', when: 'the first registered miner to claim it' },
  { from: 'claimed', on: 'AGENT_STEP', to: 'running', when: 'the claiming miner; stepIndex = stepCount < maxSteps; +100 network fee' },
  { from: 'running', on: 'AGENT_STEP', to: 'running', when: 'as above, while step tokens + network fees stay below maxFee' },
  { from: 'claimed', on: 'AGENT_STEP', to: 'insufficient_funds', when: 'the step makes step tokens + network fees reach maxFee: settled' },
  { from: 'running', on: 'AGENT_STEP', to: 'insufficient_funds', when: 'the step makes step tokens + network fees reach maxFee: settled' },
  { from: 'claimed', on: 'AGENT_FINISH completed', to: 'completed', when: 'the claiming miner; minerReward = totalTokensOut x 1 (capped)' },
  { from: 'running', on: 'AGENT_FINISH completed', to: 'completed', when: 'the claiming miner; minerReward = totalTokensOut x 1 (capped)' },
  { from: 'claimed', on: 'AGENT_FINISH failed', to: 'failed', when: 'the claiming miner gives up; minerReward 0' },
  { from: 'running', on: 'AGENT_FINISH failed', to: 'failed', when: 'the claiming miner gives up; minerReward 0' },
  { from: 'pending', on: 'AGENT_FINISH cancelled', to: 'cancelled', when: 'the submitter cancels; full refund' },
  {
    from: 'claimed',
    on: 'AGENT_FINISH cancelled',
    to: 'cancelled',
    when: 'the submitter cancels; the miner is paid for step tokens so far',
  },
  {
    from: 'running',
    on: 'AGENT_FINISH cancelled',
    to: 'cancelled',
    when: 'the submitter cancels; the miner is paid for step tokens so far',
  },
  { from: 'pending', on: 'timeout', to: 'timeout', when: 'unclaimed 600,000 ms after the request: full refund' },
  { from: 'claimed', on: 'timeout', to: 'timeout', when: 'unfinished 1,800,000 ms after the claim: minerReward 0, network fees kept' },
  { from: 'running', on: 'timeout', to: 'timeout', when: 'unfinished 1,800,000 ms after the claim: minerReward 0, network fees kept' },
];

/** Checks `on` is allowed from the run's status; VALIDATION_FAILED naming the status otherwise. */
export function checkAgentTransition(run: AgentRun | undefined, on: AgentTrigger, to?: AgentRunStatus): void {
  const what = run ? `run ${run.agentRunId} is ${run.status}` : 'the run does not exist';
  transitionRow(AGENT_TRANSITIONS, run?.status ?? null, on, what, to);
}

/** Refuses `on` unless `run` exists and its status has a row for it; narrows `run` for the caller. */
export function checkRunTransition(run: AgentRun | undefined, on: AgentTrigger): asserts run is AgentRun {
  checkAgentTransition(run, on);
  if (!run) refuse(`${on} is not allowed: the run does not exist`);
}

/** When an open run times out (ms). */
export function runDeadline(r: AgentRun): number {
  return r.status === 'pending' ? r.submittedAt + AGENT_CLAIM_TIMEOUT_MS : (r.claimedAt ?? r.submittedAt) + AGENT_RUN_TIMEOUT_MS;
}

/**
 * Pays out a run's escrow: minerReward to the miner, networkFee to the treasury, the rest back to
 * the submitter. The three always sum to maxFee.
 */
export function settleRun(
  s: TxState,
  run: AgentRun,
  status: AgentRunStatus,
  minerReward: bigint,
  at: number,
  totalTokensOut = run.totalTokensOut,
): AgentRun {
  const maxFee = BigInt(run.maxFee);
  const networkFee = BigInt(run.networkFee) < maxFee ? BigInt(run.networkFee) : maxFee;
  const reward = minerReward < maxFee - networkFee ? minerReward : maxFee - networkFee;
  const refund = maxFee - reward - networkFee;
  if (reward > 0n) s.account(present(run.minerAddress, `run ${run.agentRunId}'s miner`)).balance += reward;
  if (networkFee > 0n) s.account(TREASURY_ADDRESS).balance += networkFee;
  if (refund > 0n) s.account(run.submitter).balance += refund;
  s.supply.escrow -= maxFee;
  const settled: AgentRun = {
    ...run,
    status,
    totalTokensOut,
    minerReward: reward.toString(),
    networkFee: networkFee.toString(),
    userRefund: refund.toString(),
    finishedAt: at,
  };
  s.put(RUNS, run.agentRunId, settled);
  return settled;
}

/** The protocol reference's agent run status section. */
export function agentMachineDoc(): string[] {
  return [
    '## Agent run status',
    '',
    'Every transition not in this table is refused with `422 VALIDATION_FAILED` naming the current status. Settlement pays `minerReward` (at most maxFee - networkFee), `networkFee` (100 per step, to the treasury) and `userRefund` (the rest), summing to `maxFee`.',
    '',
    ...transitionTable(AGENT_TRANSITIONS),
  ];
}
