/**
 * What the node's HTTP API answers, as TypeScript types (the OpenAPI document at
 * /api/openapi.json is the machine-readable form). Big integers are decimal strings of
 * micro-units; heights, nonces and times (epoch ms) are numbers.
 */

/** A signed transaction of any type: its schema's fields, then publicKey, hash, signature. */
export interface WireTx {
  type: string;
  from: string;
  nonce: number;
  timestamp: number;
  publicKey: string;
  hash: string;
  signature: string;
  [field: string]: unknown;
}

/** A transaction as GET /api/chain/tx/:hash answers it. */
export type TxRecord =
  | (WireTx & { status: 'confirmed'; blockIndex: number; blockHash: string; position: number })
  | (WireTx & { status: 'pending' });

export interface Attestation {
  validatorAddress: string;
  signature: string;
  publicKey: string;
}

export interface Block {
  index: number;
  hash: string;
  previousHash: string;
  timestamp: number;
  proposer: string;
  txRoot: string;
  stateRoot: string;
  tokensBurned: string;
  tokensConsumed: string;
  transactions: WireTx[];
  attestations: Attestation[];
}

export interface BlockSummary {
  index: number;
  hash: string;
  txCount: number;
  timestamp: number;
  proposer: string;
}

export interface Health {
  status: string;
  height: number;
  peers: number;
  syncing: boolean;
}

export interface HeightAnswer {
  height: number;
  latestBlock: { index: number; hash: string; timestamp: number };
}

export interface ChainParams {
  chainId: string;
  blockTimeMs: number;
  authorities: string[];
  blockReward: string;
  forks: Record<string, number>;
  nextHeight: number;
}

export interface AccountRecord {
  address: string;
  balance: string;
  nonce: number;
  nextNonce: number;
  isMiner: boolean;
  miner?: { id: string; name: string; address: string; capabilities: string[]; reputationScore: number; tasksCompleted: number };
  recentTxs: (WireTx & { blockIndex: number; blockHash: string; position: number })[];
}

export type SearchHit =
  | { type: 'block'; data: BlockSummary }
  | { type: 'tx'; data: WireTx & { blockIndex: number; blockHash: string; position: number } }
  | { type: 'address'; data: { address: string; balance: string; nonce: number } };

export interface MempoolPage {
  total: number;
  pending: { type: string; from: string; to?: string; amount?: string; fee?: string; nonce: number; hash: string }[];
}

export interface TaskSummary {
  taskId: string;
  status: string;
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
}

export interface TaskPipeline extends TaskSummary {
  submit: { txHash: string; blockIndex: number; deadline: number; settleBy: number; [k: string]: unknown };
  responses: {
    txHash: string;
    blockIndex: number;
    minerId: string;
    miner: string;
    content: string;
    model: string | null;
    timestamp: number;
  }[];
  validation: { txHash: string; validator: string; bestMinerId: string; scores: { minerId: string; score: number }[] } | null;
  reward: { txHash: string; rewards: { address: string; amount: string; reason: string }[] } | null;
  timeout: { at: number; refunded: string } | null;
  nft: string | null;
}

export interface RunRecord {
  agentRunId: string;
  conversationId: string;
  submitter: string;
  prompt: string;
  status: string;
  minerAddress: string | null;
  stepCount: number;
  maxSteps: number;
  maxFee: string;
  minerReward: string;
  userRefund: string;
  networkFee: string;
  finalAnswerInline: string | null;
  submittedAt: number;
  finishedAt: number | null;
  blockIndex: number;
  [k: string]: unknown;
}

export interface ArtNft {
  tokenId: string;
  owner: string;
  taskId: string;
  minerId: string;
  mintedAt: number;
  blockIndex: number;
}

/** An image or audio NFT record (fields beyond these depend on the kind). */
export interface MediaNft {
  tokenId: string;
  owner: string;
  blobId?: string;
  format?: string;
  [k: string]: unknown;
}

export interface Submitted {
  ok: true;
  hash: string;
  txHash?: string;
}

/** One server-sent event of GET /api/chain/events, its data parsed. */
export interface ChainEvent {
  event: 'hello' | 'block' | 'tx' | 'reorg' | 'ping' | 'error' | string;
  /** The SSE id: the height the client now holds (block, hello), or the reorg's ancestor. */
  id?: string;
  data: unknown;
}

export interface BlockEventData {
  index: number;
  hash: string;
  timestamp: number;
  proposer: string;
  transactions: WireTx[];
}
