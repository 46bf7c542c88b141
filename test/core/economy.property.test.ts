import { createPrivateKey, sign } from 'node:crypto';
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { applyBlock, buildBlock, genesisState, type ParentRef } from '../../core/applyBlock.ts';
import type { Block } from '../../core/block.ts';
import { sha256Hex } from '../../core/hash.ts';
import type { KeyPair } from '../../core/keys.ts';
import { commitDiff, sumBalances, type AgentRun, type ChainState, type Task } from '../../core/state.ts';
import { agentRunIdOf } from '../../core/tx/agent.ts';
import { AGENT_TRANSITIONS } from '../../core/tx/agentMachine.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { expectedRewards } from '../../core/tx/task.ts';
import { TASK_TRANSITIONS } from '../../core/tx/taskMachine.ts';
import { canonicalPayload } from '../../core/txCodec.ts';
import { DEV_GENESIS, DEV_KEYS } from './support.ts';

const t = suite('economy properties');
const signers = DEV_KEYS.map((k) =>
  createPrivateKey({ key: Buffer.from(`302e020100300506032b657004220420${k.privateKey}`, 'hex'), format: 'der', type: 'pkcs8' }),
);

/** Signs with node:crypto (the wallet's signer is much slower; same signatures). */
function signed(i: number, fields: Record<string, unknown>, nonce: number, timestamp: number): SignedTx {
  const k: KeyPair = DEV_KEYS[i];
  const payload = canonicalPayload({ ...fields, from: k.address, nonce, timestamp, publicKey: k.publicKey });
  const hash = sha256Hex(JSON.stringify(payload));
  return { ...payload, hash, signature: sign(null, Buffer.from(hash), signers[i]).toString('hex') } as SignedTx;
}

type Act =
  | { k: 'submit'; fee: number; nft: boolean }
  | { k: 'respond'; task: number; miner: number }
  | { k: 'validate'; task: number; pick: number }
  | { k: 'reward'; task: number; honest: boolean }
  | { k: 'request'; maxFee: number; steps: number }
  | { k: 'claim'; run: number; miner: number }
  | { k: 'step'; run: number; tokens: number }
  | { k: 'finish'; run: number; outcome: 'completed' | 'failed' | 'cancelled'; tokens: number }
  | { k: 'wait'; ms: number }
  | { k: 'progressTask'; task: number; miner: number }
  | { k: 'progressRun'; run: number; tokens: number; end: 'completed' | 'failed' | 'cancelled' | 'step' }
  | { k: 'block' };

const idx = fc.nat({ max: 5 });
const act: fc.Arbitrary<Act> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('progressTask' as const), task: idx, miner: fc.integer({ min: 2, max: 4 }) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      k: fc.constant('progressRun' as const),
      run: idx,
      tokens: fc.nat({ max: 1500 }),
      end: fc.constantFrom('completed' as const, 'failed' as const, 'cancelled' as const, 'step' as const, 'step' as const),
    }),
  },
  { weight: 8, arbitrary: fc.constant({ k: 'block' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({ k: fc.constant('submit' as const), fee: fc.integer({ min: 5_000, max: 90_000 }), nft: fc.boolean() }),
  },
  fc.record({ k: fc.constant('respond' as const), task: idx, miner: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ k: fc.constant('validate' as const), task: idx, pick: fc.nat({ max: 3 }) }),
  fc.record({ k: fc.constant('reward' as const), task: idx, honest: fc.boolean() }),
  {
    weight: 3,
    arbitrary: fc.record({
      k: fc.constant('request' as const),
      maxFee: fc.integer({ min: 100, max: 1_200 }),
      steps: fc.integer({ min: 1, max: 4 }),
    }),
  },
  fc.record({ k: fc.constant('claim' as const), run: idx, miner: fc.integer({ min: 2, max: 4 }) }),
  fc.record({ k: fc.constant('step' as const), run: idx, tokens: fc.nat({ max: 1500 }) }),
  fc.record({
    k: fc.constant('finish' as const),
    run: idx,
    outcome: fc.constantFrom('completed' as const, 'failed' as const, 'cancelled' as const),
    tokens: fc.nat({ max: 3000 }),
  }),
  fc.record({ k: fc.constant('wait' as const), ms: fc.constantFrom(1_000, 70_000, 700_000, 2_000_000) }),
);

t('random task and agent traffic keeps supply, settles runs once, and moves only along the tables', () => {
  // Seen across all runs, so the property cannot pass on traffic that never reaches a state.
  const seen = new Set<string>();
  fc.assert(
    fc.property(fc.array(act, { minLength: 10, maxLength: 80 }), (generated) => {
      const acts = [...generated];
      const { state, block } = genesisState(DEV_GENESIS);
      let parent: ParentRef = block;
      let clock = DEV_GENESIS.timestamp;
      let pending: SignedTx[] = [];
      const nonces = new Map<number, number>();
      const tasks: string[] = [];
      const runs: string[] = [];
      const next = (i: number) => {
        const n = nonces.get(i) ?? state.accounts.get(DEV_KEYS[i].address)?.nonce ?? 0;
        nonces.set(i, n + 1);
        return n;
      };
      const settled = new Set<string>();
      const produce = () => {
        clock += DEV_GENESIS.blockTimeMs;
        const before = snapshotStatuses(state);
        const { block: b } = buildBlock(state, parent, pending, DEV_KEYS[0], clock, DEV_GENESIS);
        const applied = applyBlock(state, parent, JSON.parse(JSON.stringify(b)) as Block, DEV_GENESIS);
        commitDiff(state, applied.diff);
        checkTransitions(before, applied.diff.records.tasks, applied.diff.records.runs, settled);
        for (const x of applied.diff.records.tasks.values()) seen.add(`task ${x.status}`);
        for (const x of applied.diff.records.runs.values()) seen.add(`run ${x.status}`);
        assert.is(sumBalances(state) + state.supply.escrow + state.supply.burned, state.supply.emitted);
        parent = b;
        pending = [];
        nonces.clear();
      };
      const add = (i: number, fields: Record<string, unknown>) => pending.push(signed(i, fields, next(i), clock));
      for (const m of [2, 3, 4]) add(m, { type: 'MINER_REGISTER', name: `m${m}`, capabilities: ['chat'], fee: '10' });
      produce();
      const perform = (a: Act): void => {
        const task = (n: number) => state.records.tasks.get(tasks[n % Math.max(1, tasks.length)] ?? '') as Task | undefined;
        const run = (n: number) => state.records.runs.get(runs[n % Math.max(1, runs.length)] ?? '') as AgentRun | undefined;
        if (a.k === 'progressTask' && task(a.task)) {
          // Whatever step the task is ready for: the next response, the validation, the reward.
          const tk = task(a.task)!;
          const r =
            tk.status === 'validated'
              ? 'reward'
              : tk.status === 'responses_collected' && (tk.responses.length >= 2 || a.miner === 4)
                ? 'validate'
                : 'respond';
          const miner = 2 + (tk.responses.length % 3);
          perform(
            r === 'respond'
              ? { k: 'respond', task: a.task, miner }
              : r === 'validate'
                ? { k: 'validate', task: a.task, pick: a.miner }
                : { k: 'reward', task: a.task, honest: true },
          );
          // Seal it, so a sender's earlier refused transaction cannot leave a nonce gap in front of it.
          return produce();
        }
        if (a.k === 'progressRun' && run(a.run)) {
          const r = run(a.run)!;
          if (r.status === 'pending' && a.end !== 'cancelled') perform({ k: 'claim', run: a.run, miner: 2 + (a.tokens % 3) });
          else if (a.end === 'step') perform({ k: 'step', run: a.run, tokens: a.tokens });
          else perform({ k: 'finish', run: a.run, outcome: a.end, tokens: a.tokens });
          return produce();
        }
        if (a.k === 'block') produce();
        else if (a.k === 'wait') clock += a.ms;
        else if (a.k === 'submit') {
          const n = next(1);
          const tx = signed(
            1,
            { type: 'TASK_SUBMIT', taskType: a.nft ? 'nft_svg' : 'chat', prompt: `p${n}`, fee: String(a.fee) },
            n,
            clock,
          );
          tasks.push(tx.hash.slice(0, 32));
          pending.push(tx);
        } else if (a.k === 'respond' && task(a.task)) {
          const tk = task(a.task)!;
          const minerId = state.accounts.get(DEV_KEYS[a.miner].address)?.minerId ?? '00'.repeat(32);
          const content = `answer ${a.miner} ${tk.taskId}`;
          add(a.miner, {
            type: 'TASK_RESPONSE',
            taskId: tk.taskId,
            minerId,
            contentHash: sha256Hex(content),
            content,
            tokensOut: 7,
            fee: '10',
          });
        } else if (a.k === 'validate' && task(a.task)) {
          const tk = task(a.task)!;
          const ids = tk.responses.map((r) => r.minerId);
          add(0, {
            type: 'TASK_VALIDATE',
            taskId: tk.taskId,
            bestMinerId: ids[a.pick % Math.max(1, ids.length)] ?? 'ab'.repeat(32),
            scores: ids.map((minerId) => ({ minerId, score: 80 })),
            fee: '10',
          });
        } else if (a.k === 'reward' && task(a.task)) {
          const tk = task(a.task)!;
          const rewards =
            tk.bestMinerId && tk.validator
              ? expectedRewards(tk, parent.index + 1, { height: parent.index + 1, timestamp: clock, genesis: DEV_GENESIS })
              : [];
          if (!a.honest && rewards.length) rewards[0] = { ...rewards[0], amount: String(BigInt(rewards[0].amount) + 1n) };
          add(0, { type: 'TASK_REWARD', taskId: tk.taskId, rewards, fee: '10' });
        } else if (a.k === 'request') {
          const n = next(5);
          const prompt = `job ${n}`;
          const id = agentRunIdOf(DEV_KEYS[5].address, n, prompt);
          runs.push(id);
          pending.push(
            signed(
              5,
              {
                type: 'AGENT_REQUEST',
                agentRunId: id,
                conversationId: 'cc'.repeat(32),
                prompt,
                toolsWhitelist: [],
                maxFee: String(a.maxFee),
                maxSteps: a.steps,
              },
              n,
              clock,
            ),
          );
        } else if (a.k === 'claim' && run(a.run)) {
          add(a.miner, { type: 'AGENT_CLAIM', agentRunId: run(a.run)!.agentRunId, modelInfo: 'm', hardwareTier: 'desktop', fee: '10' });
        } else if (a.k === 'step' && run(a.run)) {
          const r = run(a.run)!;
          const miner = DEV_KEYS.findIndex((k) => k.address === r.minerAddress);
          add(miner < 0 ? 2 : miner, {
            type: 'AGENT_STEP',
            agentRunId: r.agentRunId,
            stepIndex: r.stepCount,
            outputTokens: a.tokens,
            outputHash: 'dd'.repeat(32),
            toolCalls: [],
            fee: '10',
          });
        } else if (a.k === 'finish' && run(a.run)) {
          const r = run(a.run)!;
          const miner = DEV_KEYS.findIndex((k) => k.address === r.minerAddress);
          const from = a.outcome === 'cancelled' ? 5 : miner < 0 ? 3 : miner;
          add(from, {
            type: 'AGENT_FINISH',
            agentRunId: r.agentRunId,
            outcome: a.outcome,
            finalAnswerInline: 'x',
            totalTokensOut: a.outcome === 'cancelled' ? 0 : r.stepTokensOut + a.tokens,
            fee: '10',
          });
        }
      };
      for (const a of acts) perform(a);
      produce();
      for (const r of state.records.runs.values()) {
        if (settled.has(r.agentRunId))
          assert.is(
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
    assert.not.ok(settled.has(id), `run ${id} changed after it settled`);
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

t.run();
