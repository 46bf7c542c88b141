/**
 * Random task and agent traffic (submits, responses, validations, rewards, runs and their steps,
 * waits past timeouts), generated against a complete consensus state: the economy property's
 * generator, shared with the record-cache property (test/integration/node/recordCache.property.test.ts).
 */
import { createPrivateKey, sign } from 'node:crypto';
import fc from 'fast-check';
import { sha256Hex } from '../../core/hash.ts';
import type { Genesis } from '../../core/genesis.ts';
import type { KeyPair } from '../../core/keys.ts';
import { applyBlock, genesisState, type ParentRef } from '../../core/applyBlock.ts';
import { buildBlock } from '../../core/buildBlock.ts';
import type { Block } from '../../core/block.ts';
import { commitDiff, type AgentRun, type ChainState, type StateDiff, type Task } from '../../core/state.ts';
import { agentRunIdOf } from '../../core/tx/agent/agent.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { expectedRewards } from '../../core/tx/task/task.ts';
import { canonicalPayload } from '../../core/txCodec.ts';
import { DEV_KEYS } from './coreSupport.ts';

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

export type Act =
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
export const act: fc.Arbitrary<Act> = fc.oneof(
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

/** Where the traffic goes: a complete state to read, a clock, the pending list and a sealer. */
export interface TrafficEnv {
  /** The state after the last sealed block (complete: its records are all in memory). */
  readonly state: ChainState;
  genesis: Genesis;
  clock(): number;
  advance(ms: number): void;
  /** Height of the block being filled. */
  height(): number;
  /** Adds a signed transaction to the block being filled. */
  add(tx: SignedTx): void;
  /** Seals the block being filled. */
  produce(): void;
}

/** Turns generated acts into signed transactions and sealed blocks. */
export class TaskTraffic {
  readonly tasks: string[] = [];
  readonly runs: string[] = [];
  private readonly nonces = new Map<number, number>();
  private readonly env: TrafficEnv;

  constructor(env: TrafficEnv) {
    this.env = env;
  }

  /** Dev key `i`'s next nonce, pending ones counted. */
  next(i: number): number {
    const n = this.nonces.get(i) ?? this.env.state.accounts.get(DEV_KEYS[i].address)?.nonce ?? 0;
    this.nonces.set(i, n + 1);
    return n;
  }

  /** Signs `fields` from dev key `i` into the block being filled. */
  add(i: number, fields: Record<string, unknown>): void {
    this.env.add(signed(i, fields, this.next(i), this.env.clock()));
  }

  /** Seals the block being filled. */
  seal(): void {
    this.env.produce();
    this.nonces.clear();
  }

  /** Registers dev keys 2-4 as miners and seals the block. */
  registerMiners(): void {
    for (const m of [2, 3, 4]) this.add(m, { type: 'MINER_REGISTER', name: `m${m}`, capabilities: ['chat'], fee: '10' });
    this.seal();
  }

  /** One act: the transactions it makes, and a sealed block where it says so. */
  perform(a: Act): void {
    const task = (n: number) => this.env.state.records.tasks.get(this.tasks[n % Math.max(1, this.tasks.length)] ?? '') as Task | undefined;
    const run = (n: number) => this.env.state.records.runs.get(this.runs[n % Math.max(1, this.runs.length)] ?? '') as AgentRun | undefined;
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
      this.perform(
        r === 'respond'
          ? { k: 'respond', task: a.task, miner }
          : r === 'validate'
            ? { k: 'validate', task: a.task, pick: a.miner }
            : { k: 'reward', task: a.task, honest: true },
      );
      // Seal it, so a sender's earlier refused transaction cannot leave a nonce gap in front of it.
      return this.seal();
    }
    if (a.k === 'progressRun' && run(a.run)) {
      const r = run(a.run)!;
      if (r.status === 'pending' && a.end !== 'cancelled') this.perform({ k: 'claim', run: a.run, miner: 2 + (a.tokens % 3) });
      else if (a.end === 'step') this.perform({ k: 'step', run: a.run, tokens: a.tokens });
      else this.perform({ k: 'finish', run: a.run, outcome: a.end, tokens: a.tokens });
      return this.seal();
    }
    if (a.k === 'block') this.seal();
    else if (a.k === 'wait') this.env.advance(a.ms);
    else if (a.k === 'submit') {
      const n = this.next(1);
      const tx = signed(
        1,
        { type: 'TASK_SUBMIT', taskType: a.nft ? 'nft_svg' : 'chat', prompt: `p${n}`, fee: String(a.fee) },
        n,
        this.env.clock(),
      );
      this.tasks.push(tx.hash.slice(0, 32));
      this.env.add(tx);
    } else if (a.k === 'respond' && task(a.task)) {
      const tk = task(a.task)!;
      const minerId = this.env.state.accounts.get(DEV_KEYS[a.miner].address)?.minerId ?? '00'.repeat(32);
      const content = `answer ${a.miner} ${tk.taskId}`;
      this.add(a.miner, {
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
      this.add(0, {
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
          ? expectedRewards(tk, this.env.height(), { height: this.env.height(), timestamp: this.env.clock(), genesis: this.env.genesis })
          : [];
      if (!a.honest && rewards.length) rewards[0] = { ...rewards[0], amount: String(BigInt(rewards[0].amount) + 1n) };
      this.add(0, { type: 'TASK_REWARD', taskId: tk.taskId, rewards, fee: '10' });
    } else if (a.k === 'request') {
      const n = this.next(5);
      const prompt = `job ${n}`;
      const id = agentRunIdOf(DEV_KEYS[5].address, n, prompt);
      this.runs.push(id);
      this.env.add(
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
          this.env.clock(),
        ),
      );
    } else if (a.k === 'claim' && run(a.run)) {
      this.add(a.miner, { type: 'AGENT_CLAIM', agentRunId: run(a.run)!.agentRunId, modelInfo: 'm', hardwareTier: 'desktop', fee: '10' });
    } else if (a.k === 'step' && run(a.run)) {
      const r = run(a.run)!;
      const miner = DEV_KEYS.findIndex((k) => k.address === r.minerAddress);
      this.add(miner < 0 ? 2 : miner, {
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
      this.add(from, {
        type: 'AGENT_FINISH',
        agentRunId: r.agentRunId,
        outcome: a.outcome,
        finalAnswerInline: 'x',
        totalTokensOut: a.outcome === 'cancelled' ? 0 : r.stepTokensOut + a.tokens,
        fee: '10',
      });
    }
  }
}

/** What a block of pure traffic did: the block, its transactions offered, its diff. */
export interface PureBlock {
  block: Block;
  offered: SignedTx[];
  diff: StateDiff;
}

/**
 * Runs `acts` on a complete in-memory chain from `genesis` (blocks built and applied by core
 * alone, dev key 0 proposing): miners registered first, a last block sealed at the end.
 * `onBlock` sees each block before its diff is committed to `state`, `afterBlock` after.
 */
export function pureTraffic(
  genesis: Genesis,
  acts: readonly Act[],
  hooks: { onBlock?: (b: PureBlock, state: ChainState) => void; afterBlock?: (b: PureBlock, state: ChainState) => void } = {},
): { state: ChainState; blocks: PureBlock[] } {
  const { state, block } = genesisState(genesis);
  let parent: ParentRef = block;
  let clock = genesis.timestamp;
  let pending: SignedTx[] = [];
  const blocks: PureBlock[] = [];
  const traffic = new TaskTraffic({
    state,
    genesis,
    clock: () => clock,
    advance: (ms) => {
      clock += ms;
    },
    height: () => parent.index + 1,
    add: (tx) => pending.push(tx),
    produce: () => {
      clock += genesis.blockTimeMs;
      const { block: b } = buildBlock(state, parent, pending, DEV_KEYS[0], clock, genesis);
      const out = { block: b, offered: pending, diff: applyBlock(state, parent, JSON.parse(JSON.stringify(b)) as Block, genesis).diff };
      hooks.onBlock?.(out, state);
      commitDiff(state, out.diff);
      hooks.afterBlock?.(out, state);
      blocks.push(out);
      parent = b;
      pending = [];
    },
  });
  traffic.registerMiners();
  for (const a of acts) traffic.perform(a);
  traffic.seal();
  return { state, blocks };
}
