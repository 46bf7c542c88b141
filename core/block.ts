/** Block format, hashing, the state root, attestations and proof-of-authority slots. */
import { addressFromPublicKey, isAddress, ZERO_ADDRESS } from './address.ts';
import { isBigIntString, isHex, isUint } from './encoding.ts';
import { ChainError } from './errors.ts';
import type { Genesis } from './genesis.ts';
import { merkleRoot, sha256Hex, ZERO_HASH } from './hash.ts';
import { signMessage, type KeyPair } from './keys.ts';
import { verifySignature } from './signature.ts';
import type { SignedTx } from './tx/handler.ts';

/** The proposer's signature over the block hash (quorum 1). */
export interface Attestation {
  validatorAddress: string;
  signature: string;
  publicKey: string;
}

/** A block as stored, served and gossiped. */
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
  transactions: SignedTx[];
  attestations: Attestation[];
}

/** The hashed part of a block. */
export type BlockHeader = Pick<
  Block,
  'index' | 'previousHash' | 'timestamp' | 'proposer' | 'txRoot' | 'stateRoot' | 'tokensBurned' | 'tokensConsumed'
>;

/** hex SHA-256 of the header's compact JSON in the field order docs/protocol.md gives ("Blocks"). */
export function blockHash(h: BlockHeader): string {
  return sha256Hex(
    JSON.stringify({
      index: h.index,
      previousHash: h.previousHash,
      timestamp: h.timestamp,
      proposer: h.proposer,
      txRoot: h.txRoot,
      stateRoot: h.stateRoot,
      tokensBurned: h.tokensBurned,
      tokensConsumed: h.tokensConsumed,
    }),
  );
}

/** Merkle root of the block's transaction hashes. */
export function txRootOf(txs: readonly { hash: string }[]): string {
  return merkleRoot(txs.map((t) => t.hash));
}

/** The PoA slot of a timestamp. */
export function slotOf(timestamp: number, blockTimeMs: number): number {
  return Math.floor(timestamp / blockTimeMs);
}

/** The authority that owns `slot`. */
export function slotOwner(g: Genesis, slot: number): string {
  return g.authorities[slot % g.authorities.length];
}

/**
 * True when `a` and `b` prove their proposer equivocated: two different blocks for one slot,
 * each with a header that hashes to its `hash` and an attestation by that proposer over it.
 */
export function equivocation(a: unknown, b: unknown, blockTimeMs: number): boolean {
  let x: Block;
  let y: Block;
  try {
    x = checkBlockShape(a);
    y = checkBlockShape(b);
    for (const blk of [x, y]) {
      if (blockHash(blk) !== blk.hash) return false;
      checkAttestations(blk);
    }
  } catch {
    return false;
  }
  return x.hash !== y.hash && x.proposer === y.proposer && slotOf(x.timestamp, blockTimeMs) === slotOf(y.timestamp, blockTimeMs);
}

/** The proposer's attestation of a block hash. */
export function attest(hash: string, key: KeyPair): Attestation {
  return { validatorAddress: key.address, signature: signMessage(hash, key.privateKey), publicKey: key.publicKey };
}

/** Checks a block has exactly one valid attestation, by its proposer. */
export function checkAttestations(b: Block, signatureVerified = false): void {
  if (b.attestations.length !== 1) throw new ChainError('INVALID_BLOCK', `block ${b.index}: expected exactly one attestation`);
  const a = b.attestations[0];
  if (a.validatorAddress !== b.proposer) throw new ChainError('INVALID_BLOCK', `block ${b.index}: attestation is not by the proposer`);
  if (!signatureVerified && !verifySignature(a.publicKey, b.hash, a.signature))
    throw new ChainError('INVALID_BLOCK', `block ${b.index}: attestation signature invalid`);
  // validatorAddress is the proposer, an `ox` address: the whole derived address is compared.
  if (addressFromPublicKey(a.publicKey) !== a.validatorAddress) {
    throw new ChainError('INVALID_BLOCK', `block ${b.index}: attestation key does not match its address`);
  }
}

/** Every field of a block as stored, served and gossiped (the protocol reference prints this list). */
export const BLOCK_FIELDS = [
  'index',
  'hash',
  'previousHash',
  'timestamp',
  'proposer',
  'txRoot',
  'stateRoot',
  'tokensBurned',
  'tokensConsumed',
  'transactions',
  'attestations',
] as const;

/** BLOCK_FIELDS as a set: every block applied looks each of its keys up. */
const BLOCK_FIELD_SET: ReadonlySet<string> = new Set(BLOCK_FIELDS);

/** Whether `v` is a JSON object (not null, not an array): its fields to check. */
function isFields(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural check of a block from the network or a file (transactions are checked on apply). */
export function checkBlockShape(raw: unknown): Block {
  assertBlockShape(raw);
  return raw;
}

/** Throws INVALID_BLOCK naming the first field of `raw` that is not a block's. */
function assertBlockShape(raw: unknown): asserts raw is Block {
  const bad = (why: string): never => {
    throw new ChainError('INVALID_BLOCK', `malformed block: ${why}`);
  };
  if (!isFields(raw)) return bad('not an object');
  const b = raw;
  for (const k in b) if (Object.hasOwn(b, k) && !BLOCK_FIELD_SET.has(k)) bad(`unknown field ${k}`);
  if (!isUint(b.index)) bad('index');
  for (const k of ['hash', 'previousHash', 'txRoot', 'stateRoot']) if (!isHex(b[k], 64)) bad(k);
  if (!isUint(b.timestamp)) bad('timestamp');
  if (!isAddress(b.proposer)) bad('proposer');
  if (!isBigIntString(b.tokensBurned) || !isBigIntString(b.tokensConsumed)) bad('token counters');
  if (!Array.isArray(b.transactions)) bad('transactions');
  const attestations: unknown = b.attestations;
  if (!Array.isArray(attestations)) return bad('attestations');
  for (const at of attestations) {
    if (
      !isFields(at) ||
      !isAddress(at.validatorAddress) ||
      !isHex(at.publicKey, 64) ||
      !isHex(at.signature, 128) ||
      Object.keys(at).length !== 3
    )
      bad('attestation');
  }
}

/** The genesis block for a genesis file and its state root. */
export function genesisBlock(g: Genesis, stateRoot: string): Block {
  const header: BlockHeader = {
    index: 0,
    previousHash: ZERO_HASH,
    timestamp: g.timestamp,
    proposer: ZERO_ADDRESS,
    txRoot: ZERO_HASH,
    stateRoot,
    tokensBurned: '0',
    tokensConsumed: '0',
  };
  return { ...header, hash: blockHash(header), transactions: [], attestations: [] };
}
