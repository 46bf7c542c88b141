// The node's live chain events as the explorer reads them: each event's data checked into the
// shape the pages use (a block with its transactions, a reorg's first dropped height, a pending
// transaction), so nothing downstream trusts an event's shape blindly; and the messages the
// tabs and the shared worker exchange. Pure, and free of the page: the worker imports it too.
import type { ChainEvent } from '../../client/browser.ts';
import type { Answer } from './apiCache.ts';

/** A transaction as the pages read it: its type, sender and other fields (a like's `postAuthor` when looked up). */
export type AnyTx = Readonly<{ type: string; from: string; [field: string]: unknown }>;

/** A block as a `block` event carries it. */
export interface LiveBlock {
  index: number;
  hash: string;
  timestamp: number;
  proposer: string;
  transactions: AnyTx[];
}

/** What the live connection tells a page: an event, or whether the connection is up. */
export type LiveMessage = { kind: 'status'; live: boolean; notice: string } | { kind: 'event'; e: ChainEvent };

/** What a tab asks the shared worker (liveWorker.ts): a read through its cache, or goodbye. */
export type WorkerAsk = { kind: 'get'; id: number; url: string } | { kind: 'bye' };
/** What the worker tells a tab: the live connection's messages, and the answers to its reads. */
export type WorkerSays = LiveMessage | { kind: 'got'; id: number; answer?: Answer; error?: string };

const isObject = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A transaction of an event: an object with a string type, sender and hash. */
function isTx(v: unknown): v is AnyTx & { hash: string } {
  return isObject(v) && typeof v.type === 'string' && typeof v.from === 'string' && typeof v.hash === 'string';
}

/** The block of a `block` event; null for any other event or a malformed one. */
export function blockOf(e: ChainEvent): LiveBlock | null {
  const d = e.data;
  if (e.event !== 'block' || !isObject(d)) return null;
  const { index, hash, timestamp, proposer, transactions } = d;
  if (typeof index !== 'number' || typeof hash !== 'string' || typeof timestamp !== 'number' || typeof proposer !== 'string') return null;
  if (!Array.isArray(transactions) || !transactions.every(isTx)) return null;
  return { index, hash, timestamp, proposer, transactions };
}

/** The first height a `reorg` event drops; null for any other event. */
export function reorgFrom(e: ChainEvent): number | null {
  return e.event === 'reorg' && isObject(e.data) && typeof e.data.fromHeight === 'number' ? e.data.fromHeight : null;
}

/** A transaction accepted to the mempool, as a `tx` event names it (api/streams/sseFrames.ts: its type and hash). */
export interface PendingTx {
  txType: string;
  hash: string;
}

/** The transaction a `tx` event announces; null for any other event. */
export function pendingOf(e: ChainEvent): PendingTx | null {
  const d = e.data;
  return e.event === 'tx' && isObject(d) && typeof d.txType === 'string' && typeof d.hash === 'string'
    ? { txType: d.txType, hash: d.hash }
    : null;
}
