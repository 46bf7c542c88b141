/**
 * SSE wire format and the chain stream's event shapes. Each message is `event:` + one JSON
 * `data:` line; block events also carry `id: <height>:<hash>` so a reconnecting client resumes
 * with Last-Event-ID, and a block replaced meanwhile is found by its hash (api/streams/chainEventStream.ts).
 */
import type { Block } from '../../core/block.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import type { ReorgEvent } from '../../projections/events.ts';

const utf8 = new TextEncoder();

/** One SSE message as bytes. `data` is JSON-encoded on one line (JSON.stringify never emits newlines). */
export function sseFrame(event: string, data: unknown, id?: number | string): Uint8Array {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return utf8.encode(`event: ${event}\n${idLine}data: ${JSON.stringify(data)}\n\n`);
}

/** The `retry:` hint (ms) that opens every stream. */
export function sseRetry(ms: number): Uint8Array {
  return utf8.encode(`retry: ${ms}\n\n`);
}

/** `block` data: `{index, hash, timestamp, proposer, transactions}` (the full signed transactions). */
function blockData(b: Block): { index: number; hash: string; timestamp: number; proposer: string; transactions: SignedTx[] } {
  return { index: b.index, hash: b.hash, timestamp: b.timestamp, proposer: b.proposer, transactions: b.transactions };
}

/** `tx` data: `{type: 'tx', txType, hash}`, one per transaction accepted to the mempool. */
export function txData(tx: SignedTx): { type: 'tx'; txType: string; hash: string } {
  return { type: 'tx', txType: tx.type, hash: tx.hash };
}

/** `reorg` data: `{fromHeight, oldHead, newHead, dropped}` (see ReorgEvent). */
function reorgData(e: ReorgEvent): Omit<ReorgEvent, 'type'> {
  return { fromHeight: e.fromHeight, oldHead: e.oldHead, newHead: e.newHead, dropped: e.dropped };
}

/** A resume cursor: the height and hash of the last block a client holds (`<height>:<hash>`). */
export function cursorId(index: number, hash: string | undefined): string {
  return hash === undefined ? String(index) : `${index}:${hash}`;
}

/** The block frame; its `id:` is the block's cursor, `<height>:<hash>`. */
export function blockFrame(b: Block): Uint8Array {
  return sseFrame('block', blockData(b), cursorId(b.index, b.hash));
}

/**
 * The reorg frame. Its `id:` is the common ancestor's cursor, so a client that reconnects
 * after it resumes on the new branch. Sent without an id when the ancestor is genesis' parent.
 */
export function reorgFrame(e: ReorgEvent): Uint8Array {
  return sseFrame('reorg', reorgData(e), e.fromHeight > 0 ? cursorId(e.fromHeight - 1, e.ancestorHash) : undefined);
}
