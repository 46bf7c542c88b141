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
import type { TaskPipeline, TaskSummary } from '../queries/taskQueries.ts';
import type { RunRecord } from '../queries/agentQueries.ts';
import type { Bundle, BundleFile, FileInfo, ReleaseSummary, SiteReleases } from '../queries/webQueries.ts';
import type { Answers } from '../api/endpoints/index.ts';
import type { Components } from '../queries/schemas/records.ts';

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

// The answers below are the node's route definitions' own types (api/endpoints/index.ts); the
// names are the client's own.

/** A confirmed transaction as reads serve it: its signed fields untouched, and where it landed. */
export type ConfirmedTx = Components['ConfirmedTx'];
/**
 * Where a confirmed transaction landed, served beside its signed fields (which it never
 * overwrites: a BURN's `blockIndex` is its own signed field, and `blockHeight` is always the
 * including block's height).
 */
export type Placement = Pick<ConfirmedTx, 'blockIndex' | 'blockHeight' | 'blockHash' | 'position'>;
/** A transaction as GET /api/chain/tx/:hash answers it. */
export type TxRecord = Answers['getApiChainTxHash'];
export type BlockSummary = Components['BlockSummary'];
export type Health = Answers['getApiHealth'];
export type HeightAnswer = Answers['getApiChainHeight'];
export type ChainParams = Answers['getApiChainParams'];
export type AccountRecord = Answers['getApiChainAccountAddress'];
export type SearchHit = Answers['getApiChainSearchQ'][number];
export type MempoolPage = Components['MempoolPage'];
/** An image or audio NFT record as /api/image and /api/audio serve it. */
export type MediaNft = Components['ImageNft'] | Components['AudioNft'];
export type Submitted = Answers['postApiChainTx'];

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
