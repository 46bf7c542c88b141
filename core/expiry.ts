/**
 * Block-level timeouts, applied at the start of every block before its transactions: open tasks
 * and agent runs whose deadline is before the block's timestamp settle as `timeout`.
 */
import { TREASURY_ADDRESS } from './address.ts';
import { AGENT_CLAIM_TIMEOUT_MS, AGENT_RUN_TIMEOUT_MS } from './economics.ts';
import type { AgentRun, StateOverlay, Task } from './state.ts';
import { isOpenRun, isOpenTask } from './state.ts';
import { taskDeadline } from './tx/taskMachine.ts';

/** When an open run times out (ms). */
export function runDeadline(r: AgentRun): number {
  return r.status === 'pending' ? r.submittedAt + AGENT_CLAIM_TIMEOUT_MS : (r.claimedAt ?? r.submittedAt) + AGENT_RUN_TIMEOUT_MS;
}

/**
 * Pays out a run's escrow: minerReward to the miner, networkFee to the treasury, the rest back to
 * the submitter. The three always sum to maxFee.
 */
export function settleRun(
  s: StateOverlay,
  run: AgentRun,
  status: AgentRun['status'],
  minerReward: bigint,
  at: number,
  totalTokensOut = run.totalTokensOut,
): AgentRun {
  const maxFee = BigInt(run.maxFee);
  const networkFee = BigInt(run.networkFee) < maxFee ? BigInt(run.networkFee) : maxFee;
  const reward = minerReward < maxFee - networkFee ? minerReward : maxFee - networkFee;
  const refund = maxFee - reward - networkFee;
  if (reward > 0n) s.account(run.minerAddress!).balance += reward;
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
  s.put('runs', run.agentRunId, settled);
  return settled;
}

/** Times out every open task and run whose deadline passed before `timestamp`. */
export function expireOpen(s: StateOverlay, timestamp: number): void {
  for (const id of [...s.openIds('tasks')].sort()) {
    const t = s.get('tasks', id) as Task | undefined;
    if (!t || !isOpenTask(t) || taskDeadline(t) >= timestamp) continue;
    s.account(t.submitter).balance += BigInt(t.fee);
    s.supply.escrow -= BigInt(t.fee);
    s.put('tasks', id, { ...t, status: 'timeout', settledAt: timestamp });
  }
  for (const id of [...s.openIds('runs')].sort()) {
    const r = s.get('runs', id) as AgentRun | undefined;
    if (!r || !isOpenRun(r) || runDeadline(r) >= timestamp) continue;
    // A miner that never finished earns nothing; steps it took still cost their network fee.
    settleRun(s, r, 'timeout', 0n, timestamp, r.stepTokensOut);
  }
}
