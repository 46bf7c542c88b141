/**
 * What a sync answer must be before the node spends anything more on it: a prefix of the asked
 * range, in order, each block's header hashing to its hash and linking to the one before, and the
 * last block attested by the authority that owns its slot. The attestation covers the last hash,
 * which covers its parent's hash and so on down, so one signature check per answer (not per block)
 * proves an authority produced every header in it: junk costs its sender a ban after one answer.
 * Full validation (transactions, state roots) stays with the node's import path.
 */
import { blockHash, checkAttestations, checkBlockShape, slotOf, slotOwner, type Block } from '../core/block.ts';
import { ChainError, errorMessage } from '../core/errors.ts';
import type { Genesis } from '../core/genesis.ts';
import { fieldOf } from '../core/encoding.ts';

/** A peer broke the sync protocol (oversized or malformed answers, forged blocks): it gets banned. */
export class PeerFault extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PeerFault';
  }
}

/**
 * A peer refused a range (`{error}`, e.g. its rate limit): not a breach, but a peer that keeps
 * refusing blocks below the head it claimed is lying about its head, so each refusal is a strike.
 */
export class Refusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Refusal';
  }
}

/**
 * A peer that started from a checkpoint holds no blocks below `first` yet (`{error, heldFrom}`,
 * asked from `from`): no fault and no strike while it says the same; the asker asks another peer
 * for that range. One that later refuses blocks it said it holds is struck (p2p/sync.ts).
 */
export class NotHeld extends Error {
  readonly first: number;
  readonly from: number;
  constructor(message: string, first: number, from: number) {
    super(message);
    this.name = 'NotHeld';
    this.first = first;
    this.from = from;
  }
}

/** True for an error that is the peer's fault: a protocol breach or an invalid block it served. */
export function isPeerFault(e: unknown): boolean {
  return e instanceof PeerFault || (e instanceof ChainError && e.code === 'INVALID_BLOCK');
}

/** Why `raw` is no well-formed block whose header hashes to its hash; null when it is one. */
function headerFault(raw: unknown): string | null {
  try {
    const b = checkBlockShape(raw);
    return blockHash(b) === b.hash ? null : `block ${b.index} does not hash to its hash`;
  } catch (e) {
    return errorMessage(e);
  }
}

/**
 * Why `raw` is not a header sealed by its slot's authority (shape, hash, slot owner, attestation);
 * null when it is. Cheap (one signature check): gossip and sync run it before anything costly.
 */
export function sealFault(raw: unknown, genesis: Genesis): string | null {
  const fault = headerFault(raw);
  if (fault) return fault;
  const b = raw as Block;
  if (b.index === 0) return 'block 0 is never gossiped or served as a new block';
  const owner = slotOwner(genesis, slotOf(b.timestamp, genesis.blockTimeMs));
  if (owner !== b.proposer) return `block ${b.index} is proposed by ${b.proposer}, but its slot belongs to ${owner}`;
  try {
    checkAttestations(b);
  } catch (e) {
    return errorMessage(e);
  }
  return null;
}

/** Checks a `blocks` answer for `from..to` and returns its blocks; throws PeerFault. */
export function checkAnswer(answer: unknown, from: number, to: number, genesis: Genesis): Block[] {
  const blocks = fieldOf(answer, 'blocks');
  if (!Array.isArray(blocks)) {
    // `{error}` is a refusal (e.g. the server's rate limit), not a breach: the caller retries later.
    const error = fieldOf(answer, 'error');
    const heldFrom = fieldOf(answer, 'heldFrom');
    if (typeof error === 'string' && typeof heldFrom === 'number' && Number.isSafeInteger(heldFrom) && heldFrom > from)
      throw new NotHeld(`holds no blocks below ${heldFrom} (it started from a checkpoint)`, heldFrom, from);
    if (typeof error === 'string') throw new Refusal(`refused ${from}..${to}: ${error.slice(0, 200)}`);
    throw new PeerFault(`answered no blocks for ${from}..${to}`);
  }
  if (blocks.length === 0 && from <= to) throw new PeerFault(`answered an empty range for ${from}..${to}`);
  if (blocks.length > to - from + 1) throw new PeerFault(`answered ${blocks.length} blocks for ${from}..${to}`);
  let parent: Block | null = null;
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i] as Block;
    if (typeof b !== 'object' || b === null || b.index !== from + i) throw new PeerFault(`answered a block out of order for ${from + i}`);
    const fault = headerFault(b);
    if (fault) throw new PeerFault(fault);
    if (parent && b.previousHash !== parent.hash) throw new PeerFault(`block ${b.index} does not link to block ${parent.index}`);
    parent = b;
  }
  // Genesis (asked for by an ancestor search reaching 0) is compared by hash, not sealed.
  const fault = parent !== null && parent.index > 0 ? sealFault(parent, genesis) : null;
  if (fault) throw new PeerFault(fault);
  return blocks as Block[];
}
