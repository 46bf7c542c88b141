/**
 * What the node's HTTP API answers, as TypeScript types (the OpenAPI document at
 * /api/openapi.json is the machine-readable form). Big integers are decimal strings of
 * micro-units; heights, nonces and times (epoch ms) are numbers.
 */

// The server's own record types: one definition, shared (type-only, so the browser modules
// served type-stripped import nothing of the server at run time).
import type { SignedTx } from '../core/tx/handler.ts';
import type { Attestation, Block } from '../core/block.ts';
import type { ArtNft } from '../core/tx/art.ts';
import type { AudioNft, ImageNft } from '../core/tx/media.ts';
import type { TaskPipeline, TaskSummary } from '../queries/taskQueries.ts';
import type { RunRecord } from '../queries/agentQueries.ts';
import type { Bundle, BundleFile, FileInfo, ReleaseSummary, SiteReleases } from '../queries/webQueries.ts';

export type {
  Attestation,
  ArtNft,
  Block,
  Bundle,
  BundleFile,
  FileInfo,
  ReleaseSummary,
  RunRecord,
  SiteReleases,
  TaskPipeline,
  TaskSummary,
};

/** A signed transaction of any type: its schema's fields, then publicKey, hash, signature. */
export type WireTx = SignedTx;

/**
 * Where a confirmed transaction landed, served beside its signed fields (which it never
 * overwrites: a BURN's `blockIndex` is its own signed field, and `blockHeight` is always the
 * including block's height).
 */
export interface Placement {
  blockIndex: number;
  blockHeight: number;
  blockHash: string;
  position: number;
}

/** A confirmed transaction as reads serve it. */
export type ConfirmedTx = WireTx & Placement;

/** A transaction as GET /api/chain/tx/:hash answers it. */
export type TxRecord = (ConfirmedTx & { status: 'confirmed' }) | (WireTx & { status: 'pending' });

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
  recentTxs: ConfirmedTx[];
}

export type SearchHit =
  | { type: 'block'; data: BlockSummary }
  | { type: 'tx'; data: ConfirmedTx }
  | { type: 'address'; data: { address: string; balance: string; nonce: number } };

export interface MempoolPage {
  total: number;
  pending: { type: string; from: string; to?: string; amount?: string; fee?: string; nonce: number; hash: string }[];
}

/** An image or audio NFT record as /api/image and /api/audio serve it. */
export type MediaNft = Omit<ImageNft, 'txHash'> | Omit<AudioNft, 'txHash'>;

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
