/**
 * A batch of stored blocks as their bytes, for a verification worker (node/verification/verifyPool.ts):
 * the worker parses each block as the main thread does, checks its transactions' shape, hashes
 * and txRoot (core/blockTxChecks.ts) and, unless the block is assumed valid, every signature in
 * it. The main thread then applies each block with those checks skipped where they passed. The
 * bytes travel in one buffer, moved, not copied, to the worker.
 */
import { checkedTxBytes } from '../../core/blockTxChecks.ts';
import { verifySignature } from '../../core/signature.ts';
import { signedItemsOf } from './verifyJob.ts';

/** Blocks `i` span bytes `ends[i-1]..ends[i]` of `bytes`; `assumed[i]` is 1 when its signatures are not checked. */
export interface BlockCheckJob {
  id: number;
  bytes: Uint8Array<ArrayBuffer>;
  ends: number[];
  assumed: Uint8Array;
}

/** Per block: 1 when every signature passed (or was assumed), and `txBytes` when the transaction checks passed, else -1. */
export interface BlockVerdicts {
  signatures: Uint8Array<ArrayBuffer>;
  txBytes: Float64Array<ArrayBuffer>;
}

/** One block to check: its stored bytes, and whether its signatures are assumed valid. */
export interface BlockBytes {
  bytes: Uint8Array;
  assumed: boolean;
}

/** The job for `blocks`, their bytes copied into one buffer (to be moved to the worker). */
export function packBlocks(id: number, blocks: readonly BlockBytes[]): BlockCheckJob {
  const bytes = new Uint8Array(blocks.reduce((n, b) => n + b.bytes.byteLength, 0));
  const ends: number[] = [];
  const assumed = new Uint8Array(blocks.length);
  let at = 0;
  blocks.forEach((b, i) => {
    bytes.set(b.bytes, at);
    at += b.bytes.byteLength;
    ends.push(at);
    assumed[i] = b.assumed ? 1 : 0;
  });
  return { id, bytes, ends, assumed };
}

/** The worker's side: every block of `job` parsed and checked. */
export function checkBlocks(job: BlockCheckJob): BlockVerdicts {
  const n = job.ends.length;
  const out: BlockVerdicts = { signatures: new Uint8Array(n), txBytes: new Float64Array(n).fill(-1) };
  const text = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  for (let i = 0, from = 0; i < n; from = job.ends[i++]) {
    let block: unknown;
    try {
      block = JSON.parse(text.toString('utf8', from, job.ends[i]));
    } catch {
      // Left failed: the main thread parses the same bytes and reports what it finds.
      continue;
    }
    out.txBytes[i] = checkedTxBytes(block) ?? -1;
    if (job.assumed[i] === 1) out.signatures[i] = 1;
    else {
      const items = signedItemsOf(block);
      out.signatures[i] = items?.every((s) => verifySignature(String(s.publicKey), String(s.hash), String(s.signature))) ? 1 : 0;
    }
  }
  return out;
}
