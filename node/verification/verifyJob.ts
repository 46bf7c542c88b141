/**
 * What the main thread sends a verify worker (node/verification/verifyPool.ts -> node/verification/verifyWorker.ts).
 * Items of the usual shape travel packed into one string: copying one string to a worker costs a
 * fraction of copying three arrays of hundreds of short strings (~0.8 ms a batch of 256 blocks
 * before). Any other item (a field of another length or type, as a hostile block may hold) travels
 * apart, at its position among the batch's items, with the same verdict.
 */

import type { SignedTx } from '../../core/tx/handler.ts';

/** Characters of one packed item: public key (64 hex), message (a 64-hex hash), signature (128 hex). */
const PACKED_ITEM = 256;

/** Anything signed the way transactions are: `signature` by `publicKey` over the UTF-8 of `hash`. */
export interface SignedItem {
  publicKey: unknown;
  hash: unknown;
  signature: unknown;
}

/** A batch: packed items, and the odd ones at their positions `at`. */
export interface VerifyJob {
  id: number;
  packed: string;
  odd: { at: number[]; keys: string[]; messages: string[]; signatures: string[] };
}

/** The job for `items`: each field as String() of it, packed where it has the usual length. */
export function packJob(id: number, items: readonly SignedItem[]): VerifyJob {
  const odd: VerifyJob['odd'] = { at: [], keys: [], messages: [], signatures: [] };
  let packed = '';
  for (let i = 0; i < items.length; i++) {
    const { publicKey: k, hash: m, signature: s } = items[i];
    if (typeof k === 'string' && k.length === 64 && typeof m === 'string' && m.length === 64 && typeof s === 'string' && s.length === 128)
      packed += k + m + s;
    else {
      odd.at.push(i);
      odd.keys.push(String(k));
      odd.messages.push(String(m));
      odd.signatures.push(String(s));
    }
  }
  return { id, packed, odd };
}

/** Calls `visit` with each item of `job` in its batch order: position, key, message, signature. */
export function eachItem(job: VerifyJob, visit: (i: number, key: string, message: string, signature: string) => void): void {
  const { packed, odd } = job;
  let next = 0;
  let at = 0;
  for (let i = 0; at < packed.length || next < odd.at.length; i++) {
    if (odd.at[next] === i) {
      visit(i, odd.keys[next], odd.messages[next], odd.signatures[next]);
      next++;
    } else {
      visit(i, packed.slice(at, at + 64), packed.slice(at + 64, at + 128), packed.slice(at + 128, at + PACKED_ITEM));
      at += PACKED_ITEM;
    }
  }
}

/** A block's transactions when they look like objects; anything odd is left to inline checks. */
export function txsOf(block: unknown): SignedTx[] | undefined {
  const list = (block as { transactions?: unknown } | null)?.transactions;
  return Array.isArray(list) && list.every((t) => typeof t === 'object' && t !== null) ? (list as SignedTx[]) : undefined;
}

/** Every signed item of a block (its transactions, then its attestation), when it looks like a block. */
export function signedItemsOf(block: unknown): SignedItem[] | undefined {
  const list = txsOf(block);
  const attestation = attestationOf(block);
  return list && attestation ? [...list, attestation] : undefined;
}

/** A block's attestation as a signed item (its claimed hash signed by its key), when it looks like one. */
function attestationOf(block: unknown): SignedItem | undefined {
  const b = block as { hash?: unknown; attestations?: unknown } | null;
  const a = Array.isArray(b?.attestations) && b.attestations.length === 1 ? (b.attestations[0] as Record<string, unknown> | null) : null;
  if (!a || typeof a !== 'object' || typeof b?.hash !== 'string') return undefined;
  return { publicKey: a.publicKey, hash: b.hash, signature: a.signature };
}
