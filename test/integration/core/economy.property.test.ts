import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sumBalances, type AgentRun, type ChainState, type Task } from '../../../core/state.ts';
import { AGENT_TRANSITIONS } from '../../../core/tx/agent/agentMachine.ts';
import { TASK_TRANSITIONS } from '../../../core/tx/task/taskMachine.ts';
import { act, pureTraffic } from '../../helpers/taskTraffic.ts';
import { DEV_GENESIS } from '../../helpers/coreSupport.ts';

test('random task and agent traffic keeps supply, settles runs once, and moves only along the tables', () => {
  // Seen across all runs, so the property cannot pass on traffic that never reaches a state.
  const seen = new Set<string>();
  fc.assert(
    fc.property(fc.array(act, { minLength: 10, maxLength: 80 }), (generated) => {
      const acts = [...generated];
      const settled = new Set<string>();
      let before = new Map<string, string>();
      const { state } = pureTraffic(DEV_GENESIS, acts, {
        onBlock: (_b, s) => {
          before = snapshotStatuses(s);
        },
        afterBlock: ({ diff }, s) => {
          checkTransitions(before, diff.records.tasks, diff.records.runs, settled);
          for (const x of diff.records.tasks.values()) seen.add(`task ${x.status}`);
          for (const x of diff.records.runs.values()) seen.add(`run ${x.status}`);
          assert.equal(sumBalances(s) + s.supply.escrow + s.supply.burned, s.supply.emitted);
        },
      });
      for (const r of state.records.runs.values()) {
        if (settled.has(r.agentRunId))
          assert.equal(
            BigInt(r.minerReward) + BigInt(r.networkFee) + BigInt(r.userRefund),
            BigInt(r.maxFee),
            `run ${r.agentRunId} settlement`,
          );
      }
    }),
    { numRuns: 150, seed: 20261122 },
  );
  for (const status of ['submitted', 'responses_collected', 'validated', 'rewarded', 'timeout'])
    assert.ok(seen.has(`task ${status}`), `no task reached ${status}: ${[...seen]}`);
  for (const status of ['pending', 'claimed', 'running', 'completed', 'failed', 'timeout', 'insufficient_funds', 'cancelled'])
    assert.ok(seen.has(`run ${status}`), `no run reached ${status}: ${[...seen]}`);
});

function snapshotStatuses(s: ChainState): Map<string, string> {
  const out = new Map<string, string>();
  for (const [id, x] of s.records.tasks) out.set(`t:${id}`, x.status);
  for (const [id, x] of s.records.runs) out.set(`r:${id}`, x.status);
  return out;
}

/** Every status change a block made is a row of the task or agent table; settled runs never change. */
function checkTransitions(before: Map<string, string>, tasks: Map<string, Task>, runs: Map<string, AgentRun>, settled: Set<string>): void {
  for (const [id, x] of tasks) {
    const from = before.get(`t:${id}`) ?? null;
    if (from === x.status) continue;
    // One block may take a task through several rows (e.g. submitted, then a response).
    assert.ok(reachable(TASK_TRANSITIONS, from, x.status), `task ${from} -> ${x.status}`);
  }
  for (const [id, x] of runs) {
    assert.ok(!settled.has(id), `run ${id} changed after it settled`);
    const from = before.get(`r:${id}`) ?? null;
    if (!['pending', 'claimed', 'running'].includes(x.status)) settled.add(id);
    if (from === x.status) continue;
    assert.ok(reachable(AGENT_TRANSITIONS, from, x.status), `run ${from} -> ${x.status}`);
  }
}

function reachable(table: readonly { from: string | null; to: string }[], from: string | null, to: string): boolean {
  const seen = new Set<string | null>([from]);
  const queue: (string | null)[] = [from];
  while (queue.length) {
    const s = queue.shift()!;
    for (const row of table) {
      if (row.from !== s || seen.has(row.to)) continue;
      if (row.to === to) return true;
      seen.add(row.to);
      queue.push(row.to);
    }
  }
  return false;
}
