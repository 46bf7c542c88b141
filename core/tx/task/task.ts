/** The task pipeline: TASK_SUBMIT, TASK_RESPONSE, TASK_VALIDATE, TASK_REWARD, the task records and their timeouts. */
import { present } from '../../errors.ts';
import { MAX_TASK_RESPONSES, MIN_TASK_FEE } from '../../economics.ts';
import { sha256Hex } from '../../hash.ts';
import { f, defineTx } from '../../schema.ts';
import { defineFamily, expireDue } from '../family.ts';
import { feeOf, payFee, refuse, txHandler } from '../handler.ts';
import { TASKS } from './taskRecord.ts';
import { checkTaskTransition, expectedRewards, nextTaskStatus, taskDeadline, taskMachineDoc } from './taskMachine.ts';

export { expectedRewards };
export { TASK_STATUSES, TASKS, type Task, type TaskStatus } from './taskRecord.ts';

/** Task types and their timeouts in ms (the live network's TASK_TIMEOUTS). */
export const TASK_TIMEOUTS = {
  chat: 60_000,
  code_simple: 120_000,
  code_agentic: 600_000,
  image: 120_000,
  audio: 90_000,
  video: 180_000,
  embedding: 30_000,
  nft_svg: 180_000,
  challenge: 60_000,
} as const;
const TASK_TYPES = Object.keys(TASK_TIMEOUTS) as (keyof typeof TASK_TIMEOUTS)[];

/** TASK_SUBMIT: the live network's order. `taskId` may be omitted (then: first 32 hex of the hash). */
export const TASK_SUBMIT = defineTx({
  type: 'TASK_SUBMIT',
  family: 'task',
  fork: 1,
  doc: 'Asks miners for inference; the fee (at least 10,000) is escrowed until reward or timeout.',
  fields: {
    from: f.address(),
    taskId: f.optional(f.id(64, 8)),
    taskType: f.oneOf(TASK_TYPES),
    prompt: f.text(16_384, 1),
    fee: f.amount(),
    timeoutMs: f.optional(f.uint(3_600_000, 1_000)),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '`fee` (at least 10,000) moves from `from` into `escrow`; no proposer fee. On timeout the escrow goes back to `from`.',
});

/** TASK_RESPONSE: the live network's order, then fee, nonce, timestamp. */
export const TASK_RESPONSE = defineTx({
  type: 'TASK_RESPONSE',
  family: 'task',
  fork: 1,
  doc: 'A registered miner answers a task before its timeout; contentHash = SHA-256(content).',
  fields: {
    from: f.address(),
    taskId: f.id(64, 8),
    minerId: f.hex(64),
    contentHash: f.hex(64),
    content: f.text(65_536),
    thinking: f.optional(f.text(65_536)),
    model: f.optional(f.text(128)),
    tokensIn: f.optional(f.uint()),
    tokensOut: f.optional(f.uint()),
    thinkingTokens: f.optional(f.uint()),
    durationMs: f.optional(f.uint()),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '`fee` moves from the miner to the block proposer.',
});

export const TASK_VALIDATE = defineTx({
  type: 'TASK_VALIDATE',
  family: 'task',
  fork: 1,
  doc: "A validator scores a task's responses and names the best miner; the sender becomes the task's validator.",
  fields: {
    from: f.address(),
    taskId: f.id(64, 8),
    bestMinerId: f.hex(64),
    scores: f.list(256, { minerId: f.hex(64), score: f.uint(100) }),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '`fee` moves from the validator to the block proposer.',
});

export const TASK_REWARD = defineTx({
  type: 'TASK_REWARD',
  family: 'task',
  fork: 1,
  doc: "The task's validator distributes the escrowed fee: miner, validator and burn shares.",
  fields: {
    from: f.address(),
    taskId: f.id(64, 8),
    rewards: f.list(16, { address: f.address(), amount: f.amount(), reason: f.oneOf(['miner', 'validator', 'burn'] as const) }),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow:
    "the task's escrow is released: before fork 2 all of it to the best miner; from fork 2 70% to the best miner, 5% to the validator and the remainder (25%) to `burned`. `fee` moves from the validator to the block proposer.",
});

/** The id of the task a TASK_SUBMIT creates: its taskId, or the first 32 hex of its hash. */
export function taskIdOf(tx: { readonly taskId?: unknown; readonly hash: string }): string {
  return typeof tx.taskId === 'string' ? tx.taskId : tx.hash.slice(0, 32);
}

const submit = txHandler(TASK_SUBMIT, {
  // The fee is the task's escrow; no proposer fee is taken from a submission.
  check(tx, state) {
    if (feeOf(tx) < MIN_TASK_FEE) refuse(`task fee must be at least ${MIN_TASK_FEE}`);
    const existing = state.get(TASKS, taskIdOf(tx));
    if (existing) refuse(`task ${existing.taskId} already exists (status ${existing.status})`);
  },
  apply(tx, s, ctx) {
    const taskId = taskIdOf(tx);
    const fee = feeOf(tx);
    s.account(tx.from).balance -= fee;
    s.supply.escrow += fee;
    s.put(TASKS, taskId, {
      taskId,
      submitter: tx.from,
      taskType: tx.taskType,
      prompt: tx.prompt,
      fee: fee.toString(),
      timeoutMs: tx.timeoutMs ?? TASK_TIMEOUTS[tx.taskType],
      submittedAt: ctx.timestamp,
      submitBlock: ctx.height,
      submitTxHash: tx.hash,
      status: nextTaskStatus(undefined, 'TASK_SUBMIT'),
      responses: [],
    });
  },
});

const response = txHandler(TASK_RESPONSE, {
  check(tx, state, ctx) {
    const task = state.get(TASKS, tx.taskId);
    checkTaskTransition(task, 'TASK_RESPONSE');
    const minerId = state.peek(tx.from).minerId;
    if (!minerId) refuse('only a registered miner may respond (send MINER_REGISTER first)');
    if (tx.minerId !== minerId) refuse(`minerId must be the sender's miner id ${minerId}`);
    if (sha256Hex(tx.content) !== tx.contentHash) refuse('contentHash is not SHA-256 of content');
    if (ctx.timestamp > task.submittedAt + task.timeoutMs)
      refuse(`task ${task.taskId} stopped taking responses at ${task.submittedAt + task.timeoutMs}`);
    if (task.responses.some((r) => r.minerId === minerId)) refuse(`miner ${minerId} already responded to task ${task.taskId}`);
    if (task.responses.length >= MAX_TASK_RESPONSES) refuse(`task ${task.taskId} already has ${MAX_TASK_RESPONSES} responses`);
  },
  apply(tx, s, ctx) {
    const task = present(s.get(TASKS, tx.taskId), `task ${tx.taskId}`);
    const ref = { minerId: tx.minerId, miner: tx.from, contentHash: tx.contentHash, txHash: tx.hash };
    s.put(TASKS, task.taskId, { ...task, status: nextTaskStatus(task, 'TASK_RESPONSE'), responses: [...task.responses, ref] });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
  // The block's tokensConsumed: what its responses report generating (output and thinking).
  tokensConsumed: (tx) => BigInt(tx.tokensOut ?? 0) + BigInt(tx.thinkingTokens ?? 0),
});

const validate = txHandler(TASK_VALIDATE, {
  check(tx, state, ctx) {
    const task = state.get(TASKS, tx.taskId);
    checkTaskTransition(task, 'TASK_VALIDATE');
    if (!ctx.genesis.authorities.includes(tx.from)) refuse('only a genesis authority may validate tasks');
    const responders = new Set(task.responses.map((r) => r.minerId));
    if (!responders.has(tx.bestMinerId)) refuse(`bestMinerId ${tx.bestMinerId} did not respond to task ${task.taskId}`);
    const scored = new Set<string>();
    for (const { minerId } of tx.scores) {
      if (!responders.has(minerId)) refuse(`scores name ${minerId}, which did not respond`);
      if (scored.has(minerId)) refuse(`scores name ${minerId} twice`);
      scored.add(minerId);
    }
  },
  apply(tx, s, ctx) {
    const task = present(s.get(TASKS, tx.taskId), `task ${tx.taskId}`);
    const scores = tx.scores.map((x) => ({ minerId: x.minerId, score: x.score }));
    s.put(TASKS, task.taskId, {
      ...task,
      status: nextTaskStatus(task, 'TASK_VALIDATE'),
      validator: tx.from,
      bestMinerId: tx.bestMinerId,
      scores,
    });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

const reward = txHandler(TASK_REWARD, {
  check(tx, state, ctx) {
    const task = state.get(TASKS, tx.taskId);
    checkTaskTransition(task, 'TASK_REWARD');
    if (tx.from !== task.validator) refuse(`only the task's validator ${task.validator} may reward it`);
    const expected = expectedRewards(task, ctx.height, ctx);
    const got = tx.rewards.map((r) => [r.address, r.amount, r.reason].join('|'));
    if (got.join(',') !== expected.map((r) => [r.address, r.amount, r.reason].join('|')).join(','))
      refuse(`rewards must be exactly ${JSON.stringify(expected)}`);
  },
  apply(tx, s, ctx) {
    const task = present(s.get(TASKS, tx.taskId), `task ${tx.taskId}`);
    for (const r of expectedRewards(task, ctx.height, ctx)) {
      if (r.reason === 'burn') s.supply.burned += BigInt(r.amount);
      else s.account(r.address).balance += BigInt(r.amount);
    }
    s.supply.escrow -= BigInt(task.fee);
    s.put(TASKS, task.taskId, { ...task, status: nextTaskStatus(task, 'TASK_REWARD'), rewardTxHash: tx.hash, settledAt: ctx.timestamp });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** The task pipeline: its four types, the task records and their timeouts. */
export const taskFamily = defineFamily({
  name: 'task',
  handlers: [submit, response, validate, reward],
  records: [TASKS],
  beginBlock: {
    doc: 'a task past its deadline returns its escrow to the submitter',
    run(s, ctx) {
      expireDue(s, TASKS, ctx.timestamp, taskDeadline, (t) => {
        s.account(t.submitter).balance += BigInt(t.fee);
        s.supply.escrow -= BigInt(t.fee);
        s.put(TASKS, t.taskId, { ...t, status: 'timeout', settledAt: ctx.timestamp });
      });
    },
  },
  docSections: taskMachineDoc,
});
