/** The task pipeline: TASK_SUBMIT, TASK_RESPONSE, TASK_VALIDATE, TASK_REWARD (schemas). */
import { f, defineTx } from '../schema.ts';
import { notExecuted, type TxHandler } from './handler.ts';

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
});

export const TASK_VALIDATE = defineTx({
  type: 'TASK_VALIDATE',
  family: 'task',
  fork: 1,
  doc: 'A validator scores a task\'s responses and names the best miner; the sender becomes the task\'s validator.',
  fields: {
    from: f.address(),
    taskId: f.id(64, 8),
    bestMinerId: f.hex(64),
    scores: f.list(256, { minerId: f.hex(64), score: f.uint(100) }),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

export const TASK_REWARD = defineTx({
  type: 'TASK_REWARD',
  family: 'task',
  fork: 1,
  doc: 'The task\'s validator distributes the escrowed fee: miner, validator and burn shares.',
  fields: {
    from: f.address(),
    taskId: f.id(64, 8),
    rewards: f.list(16, { address: f.address(), amount: f.amount(), reason: f.oneOf(['miner', 'validator', 'burn'] as const) }),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

export const taskHandlers: TxHandler[] = [TASK_SUBMIT, TASK_RESPONSE, TASK_VALIDATE, TASK_REWARD].map(notExecuted);
