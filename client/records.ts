/**
 * The records the node's answers are made of: the OpenAPI document's components, transactions aside.
 * Generated from api/endpoints/ by `npm run docs` (a test fails when it is stale): do not edit.
 */

import type { SignedTx } from '../core/tx/handler.ts';

/** Each component record by its schema name. */
export interface Components {
  Error: { error: string; code: string };
  ConfirmedTx: SignedTx & { blockIndex: number; blockHeight: number; blockHash: string; position: number };
  ListedTx: SignedTx & { blockIndex: number; blockHeight: number; blockHash: string; position: number; blockTime: number };
  Attestation: { validatorAddress: string; signature: string; publicKey: string };
  Block: {
    index: number;
    hash: string;
    previousHash: string;
    timestamp: number;
    proposer: string;
    txRoot: string;
    stateRoot: string;
    tokensBurned: string;
    tokensConsumed: string;
    transactions: SignedTx[];
    attestations: Components['Attestation'][];
  };
  BlockSummary: { index: number; hash: string; txCount: number; timestamp: number; proposer: string };
  BlockRange: { from: number; to: number; blocks: Components['Block'][]; count: number; next?: number };
  AddressBrief: { address: string; balance: string; nonce: number };
  Miner: { id: string; name: string; address: string; reputationScore: number; capabilities: string[]; tasksCompleted: number };
  MinerDetail: {
    id: string;
    name: string;
    address: string;
    reputationScore: number;
    capabilities: string[];
    tasksCompleted: number;
    registeredAt: number;
    txHash: string;
  };
  TaskSummary: {
    taskId: string;
    status: 'submitted' | 'responses_collected' | 'validated' | 'rewarded' | 'timeout';
    taskType: string;
    responseCount: number;
    hasValidation: boolean;
    hasReward: boolean;
    submitter: string;
    fee: string;
    timeoutMs: number;
    submittedAt: number;
    bestMinerId: string | null;
    prompt: string;
  };
  TaskList: { tasks: Components['TaskSummary'][]; total: number };
  TaskPipeline: {
    taskId: string;
    status: 'submitted' | 'responses_collected' | 'validated' | 'rewarded' | 'timeout';
    taskType: string;
    responseCount: number;
    hasValidation: boolean;
    hasReward: boolean;
    submitter: string;
    fee: string;
    timeoutMs: number;
    submittedAt: number;
    bestMinerId: string | null;
    prompt: string;
    submit: {
      txHash: string;
      blockIndex: number;
      submitter: string;
      taskType: string;
      prompt: string;
      fee: string;
      timeoutMs: number;
      submittedAt: number;
      deadline: number;
      settleBy: number;
    };
    responses: {
      txHash: string;
      blockIndex: number;
      minerId: string;
      miner: string;
      contentHash: string;
      content: string;
      model: string | null;
      tokensIn: number | null;
      tokensOut: number | null;
      thinkingTokens: number | null;
      durationMs: number | null;
      timestamp: number;
    }[];
    validation: {
      txHash: string;
      blockIndex: number;
      validator: string;
      bestMinerId: string;
      scores: { minerId: string; score: number }[];
      timestamp: number;
    } | null;
    reward: { txHash: string; blockIndex: number; rewards: { address: string; amount: string; reason: string }[]; timestamp: number } | null;
    timeout: { at: number; refunded: string } | null;
    nft: string | null;
  };
  RunRecord: {
    agentRunId: string;
    conversationId: string;
    submitter: string;
    prompt: string;
    toolsWhitelist: string[];
    maxFee: string;
    maxSteps: number;
    status: 'pending' | 'claimed' | 'running' | 'completed' | 'failed' | 'timeout' | 'insufficient_funds' | 'cancelled';
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
  };
  RunStep: {
    stepIndex: number;
    outputTokens: number;
    outputHash: string;
    toolCalls: { name: string; argsHash: string; resultHash: string; durationMs: number; ok: boolean }[];
    timestamp: number;
    blockIndex: number;
  };
  Conversation: { conversationId: string; creator: string; turnCount: number; firstTurnAt: number; lastTurnAt: number };
  Turn: {
    hash: string;
    from: string;
    role: string;
    content: string;
    agentRunId: string | null;
    parentTurnHash: string | null;
    timestamp: number;
    blockIndex: number;
  };
  ArtNft: { tokenId: string; owner: string; taskId: string; minerId: string; mintedAt: number; blockIndex: number };
  ImageNft: {
    tokenId: string;
    blobId: string;
    owner: string;
    taskId: string;
    minerId: string;
    mintedAt: number;
    blockIndex: number;
    format: 'image:png' | 'image:jpeg' | 'image:webp';
    width: number;
    height: number;
  };
  AudioNft: {
    tokenId: string;
    blobId: string;
    owner: string;
    taskId: string;
    minerId: string;
    mintedAt: number;
    blockIndex: number;
    format: 'audio:wav' | 'audio:mpeg' | 'audio:ogg';
    durationMs: number;
    sampleRate: number;
  };
  MempoolPage: {
    total: number;
    pending: { type: string; from: string; to?: string; amount?: string; fee?: string; nonce: number; hash: string }[];
  };
  ApiKey: { id: string; label: string; tier: number; createdAt: number; lastUsedAt: number | null };
  Alert: {
    id: string;
    trigger: 'address_tx' | 'miner_block' | 'reward' | 'agent_finished';
    params: { address?: string };
    channel: 'webhook' | 'email';
    target: string;
    status: 'active' | 'unconfirmed' | 'disabled';
    createdAt: number;
    delivered: number;
    failed: number;
    pending: number;
    lastDeliveredAt: number | null;
    lastFailure: { deliveryId: string; at: number; attempts: number; error: string } | null;
    consecutiveFailures: number;
    disabledAt: number | null;
    disabledReason: string | null;
  };
}

