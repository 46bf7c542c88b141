/**
 * The records the node answers with, as JSON Schemas typed by the builders of ./shapes.ts: the
 * queries return `Components[...]`, the API documents these schemas as its components (beside
 * core's transaction schemas) and the client reads the same types.
 */
import type { SignedTx } from '../../core/tx/handler.ts';
import {
  address,
  arr,
  big,
  bool,
  hash,
  int,
  ms,
  nullable,
  num,
  obj,
  oneOf,
  refTo,
  type Schema,
  type Static,
  str,
  txWith,
  uint,
} from './shapes.ts';
import type { JsonSchema } from './shapes.ts';

const TASK_STATUS = oneOf('submitted', 'responses_collected', 'validated', 'rewarded', 'timeout');
const RUN_STATUS = oneOf('pending', 'claimed', 'running', 'completed', 'failed', 'timeout', 'insufficient_funds', 'cancelled');

const taskSummary = {
  taskId: str,
  status: TASK_STATUS,
  taskType: str,
  responseCount: uint,
  hasValidation: bool,
  hasReward: bool,
  submitter: address,
  fee: big,
  timeoutMs: uint,
  submittedAt: ms,
  bestMinerId: nullable(hash),
  prompt: str,
};

/** What image and audio NFT records share (their media facts follow). */
const mediaNft = { tokenId: hash, blobId: hash, owner: address, taskId: str, minerId: hash, mintedAt: ms, blockIndex: uint };

const minerRecord = { id: hash, name: str, address, reputationScore: num, capabilities: arr(str), tasksCompleted: uint };

const TX_DEF = { ...txWith({}), description: 'A signed transaction, nothing more' };
const TX = refTo('Tx', TX_DEF);
const ATTESTATION_DEF = obj({ validatorAddress: address, signature: { type: 'string', pattern: '^[0-9a-f]{128}$' }, publicKey: hash });
const ATTESTATION = refTo('Attestation', ATTESTATION_DEF);
const BLOCK_DEF = obj({
  index: uint,
  hash,
  previousHash: hash,
  timestamp: ms,
  proposer: address,
  txRoot: hash,
  stateRoot: hash,
  tokensBurned: big,
  tokensConsumed: big,
  transactions: arr(TX),
  attestations: arr(ATTESTATION),
});
const BLOCK = refTo('Block', BLOCK_DEF);
const TASK_SUMMARY_DEF = obj(taskSummary);
const TASK_SUMMARY = refTo('TaskSummary', TASK_SUMMARY_DEF);

/** The records answers are made of, transactions aside (core's schemas type those). */
export const RECORDS = {
  Tx: TX_DEF,
  ConfirmedTx: {
    ...txWith({ blockIndex: uint, blockHeight: uint, blockHash: hash, position: uint }),
    description:
      'A signed transaction, untouched (it re-hashes to its `hash`), plus where it landed: `blockHeight`, `blockHash`, `position`, and `blockIndex` where the type has no signed `blockIndex` of its own (BURN has)',
  },
  ListedTx: {
    ...txWith({ blockIndex: uint, blockHeight: uint, blockHash: hash, position: uint, blockTime: ms }),
    description:
      'A confirmed transaction as lists serve it: the ConfirmedTx fields, plus `blockTime`, the time its block recorded (epoch ms; the signed `timestamp` is the time the sender signed it)',
  },
  Attestation: ATTESTATION_DEF,
  Block: BLOCK_DEF,
  BlockSummary: obj({ index: uint, hash, txCount: uint, timestamp: ms, proposer: address }),
  BlockRange: obj({ from: uint, to: uint, blocks: arr(BLOCK), count: uint, next: uint }, ['next']),
  AddressBrief: obj({ address, balance: big, nonce: uint }),
  Miner: obj(minerRecord),
  MinerDetail: obj({ ...minerRecord, registeredAt: uint, txHash: hash }),
  TaskSummary: TASK_SUMMARY_DEF,
  TaskList: obj({ tasks: arr(TASK_SUMMARY), total: uint }),
  TaskPipeline: obj({
    ...taskSummary,
    submit: obj({
      txHash: hash,
      blockIndex: uint,
      submitter: address,
      taskType: str,
      prompt: str,
      fee: big,
      timeoutMs: uint,
      submittedAt: ms,
      deadline: ms,
      settleBy: ms,
    }),
    responses: arr(
      obj({
        txHash: hash,
        blockIndex: uint,
        minerId: hash,
        miner: address,
        contentHash: hash,
        content: str,
        model: nullable(str),
        tokensIn: nullable(int),
        tokensOut: nullable(int),
        thinkingTokens: nullable(int),
        durationMs: nullable(int),
        timestamp: ms,
      }),
    ),
    validation: nullable(
      obj({
        txHash: hash,
        blockIndex: uint,
        validator: address,
        bestMinerId: hash,
        scores: arr(obj({ minerId: hash, score: num })),
        timestamp: ms,
      }),
    ),
    reward: nullable(obj({ txHash: hash, blockIndex: uint, rewards: arr(obj({ address, amount: big, reason: str })), timestamp: ms })),
    timeout: nullable(obj({ at: ms, refunded: big })),
    nft: nullable(hash),
  }),
  RunRecord: obj({
    agentRunId: hash,
    conversationId: hash,
    submitter: address,
    prompt: str,
    toolsWhitelist: arr(str),
    maxFee: big,
    maxSteps: uint,
    status: RUN_STATUS,
    minerAddress: nullable(address),
    modelInfo: nullable(str),
    hardwareTier: nullable(str),
    stepCount: uint,
    totalTokensOut: uint,
    minerReward: big,
    userRefund: big,
    networkFee: big,
    finalAnswerInline: nullable(str),
    submittedAt: ms,
    claimedAt: nullable(ms),
    finishedAt: nullable(ms),
    blockIndex: uint,
  }),
  RunStep: obj({
    stepIndex: uint,
    outputTokens: uint,
    outputHash: hash,
    toolCalls: arr(obj({ name: str, argsHash: hash, resultHash: hash, durationMs: uint, ok: bool })),
    timestamp: ms,
    blockIndex: uint,
  }),
  Conversation: obj({ conversationId: hash, creator: address, turnCount: uint, firstTurnAt: ms, lastTurnAt: ms }),
  Turn: obj({
    hash,
    from: address,
    role: str,
    content: str,
    agentRunId: nullable(hash),
    parentTurnHash: nullable(hash),
    timestamp: ms,
    blockIndex: uint,
  }),
  ArtNft: obj({ tokenId: hash, owner: address, taskId: str, minerId: hash, mintedAt: ms, blockIndex: uint }),
  ImageNft: obj({
    ...mediaNft,
    format: oneOf('image:png', 'image:jpeg', 'image:webp'),
    width: { type: 'integer', minimum: 1 },
    height: { type: 'integer', minimum: 1 },
  }),
  AudioNft: obj({
    ...mediaNft,
    format: oneOf('audio:wav', 'audio:mpeg', 'audio:ogg'),
    durationMs: uint,
    sampleRate: { type: 'integer', minimum: 1 },
  }),
  MempoolPage: obj({
    total: uint,
    pending: arr(obj({ type: str, from: address, to: address, amount: big, fee: big, nonce: uint, hash }, ['to', 'amount', 'fee'])),
  }),
  ApiKey: obj({ id: str, label: str, tier: uint, createdAt: ms, lastUsedAt: nullable(ms) }),
  Alert: obj({
    id: str,
    trigger: oneOf('address_tx', 'miner_block', 'reward', 'agent_finished'),
    params: obj({ address }, ['address']),
    channel: oneOf('webhook', 'email'),
    target: str,
    status: oneOf('active', 'unconfirmed', 'disabled'),
    createdAt: ms,
    delivered: uint,
    failed: uint,
    pending: uint,
    lastDeliveredAt: nullable(ms),
    lastFailure: nullable(obj({ deliveryId: str, at: ms, attempts: uint, error: str })),
    consecutiveFailures: uint,
    disabledAt: nullable(ms),
    disabledReason: nullable(str),
  }),
};

/** Every error, everywhere. */
export const ERROR = {
  ...obj({ error: { type: 'string', minLength: 1 }, code: { type: 'string', pattern: '^[A-Z][A-Z_]*$' } }),
  description: 'Every error, everywhere: a message and a stable UPPER_SNAKE code (see the status table in the protocol docs)',
};

/** Each record's type by its component name. */
export type Components = { [K in keyof typeof RECORDS]: Static<(typeof RECORDS)[K]> } & { Error: Static<typeof ERROR> };

/** A reference to the component `name`, typed as its record (a transaction's schema: core's `SignedTx`). */
export function ref<N extends keyof Components>(name: N): Schema<Components[N]>;
export function ref(name: `Tx_${string}` | 'SignedTx'): Schema<SignedTx>;
export function ref(name: string): JsonSchema {
  return refTo(name);
}
