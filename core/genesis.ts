/** The genesis file, fork schedule and chain parameters derived from it. */
import { isAddress } from './address.ts';
import { isBigIntString, isUint } from './encoding.ts';
import { ChainError } from './errors.ts';
import { sha256Hex } from './hash.ts';
import type { ForkId } from './schema.ts';

/**
 * Activation heights of forks 2..7. Forks 2..6 are named by every genesis; fork 7 (claims cost a
 * fee, core/economics.ts) is optional: a genesis without it, and no OMBRA_FORK_HEIGHT_V7, never
 * activates it.
 */
export type ForkHeights = Record<2 | 3 | 4 | 5 | 6, number> & { 7?: number };

/** The genesis file. */
export interface Genesis {
  chainId: string;
  /** Epoch ms; the genesis block's timestamp and the origin of nothing else (slots are absolute). */
  timestamp: number;
  blockTimeMs: number;
  authorities: string[];
  allocations: Record<string, string>;
  /** Micro-units minted to each block's proposer before fork 2. */
  blockReward: string;
  forks: ForkHeights;
  /**
   * How deep a reorganisation may reach (blocks below the head); a block this deep is final.
   * Optional: DEFAULT_FINALITY_DEPTH when absent.
   */
  finalityDepth?: number;
}

/** The finality depth of a genesis that names none. */
const DEFAULT_FINALITY_DEPTH = 128;

/** How deep a reorganisation of this chain may reach. */
export function finalityDepthOf(g: Genesis): number {
  return g.finalityDepth ?? DEFAULT_FINALITY_DEPTH;
}

/** Storage bytes credited to a block's proposer (STORAGE_QUOTA_PER_BLOCK). */
export const STORAGE_QUOTA_PER_BLOCK = 4096n;
/** Most transactions one block may carry. */
export const MAX_BLOCK_TXS = 2000;
/**
 * Most bytes a block's transactions may take: the UTF-8 length of each one's JSON, summed. A
 * block must fit one gossip message (4 MiB + 64 KiB) with its header and attestation.
 */
export const MAX_BLOCK_TX_BYTES = 3 * 1024 * 1024;
/** How far a transaction's timestamp may run ahead of its block (ms). */
export const MAX_TX_FUTURE_MS = 120_000;

/** True when fork `fork` is active at `height`. */
export function forkActive(forks: ForkHeights, fork: ForkId, height: number): boolean {
  if (fork === 1) return true;
  const at = forks[fork];
  return at !== undefined && height >= at;
}

/** Refuses a genesis file: ChainError INVALID_PARAMS naming `why`. */
function bad(why: string): never {
  throw new ChainError('INVALID_PARAMS', `genesis: ${why}`);
}

/** Whether `v` is a plain JSON object (not null, not an array). */
function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A fork height of the file's `forks`: a block height, else refused naming the fork. */
function forkHeight(forks: Record<string, unknown>, id: 2 | 3 | 4 | 5 | 6 | 7): number {
  const h = forks[String(id)];
  return isUint(h) ? h : bad(`forks.${id} must be a block height`);
}

/** Validates and normalises a parsed genesis file; throws ChainError INVALID_PARAMS. */
export function parseGenesis(raw: unknown): Genesis {
  if (!isObject(raw)) return bad('must be a JSON object');
  const g = raw;
  const known = ['chainId', 'timestamp', 'blockTimeMs', 'authorities', 'allocations', 'blockReward', 'forks', 'finalityDepth'];
  for (const k of Object.keys(g)) if (!known.includes(k)) bad(`unknown field ${k}`);
  const { chainId, timestamp, blockTimeMs, authorities: auth, allocations: alloc, blockReward, forks, finalityDepth } = g;
  if (typeof chainId !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(chainId)) return bad('chainId must be 1-64 of [A-Za-z0-9_.-]');
  if (!isUint(timestamp)) return bad('timestamp must be epoch ms');
  if (!isUint(blockTimeMs) || blockTimeMs < 100 || blockTimeMs > 3_600_000) return bad('blockTimeMs must be 100..3600000');
  if (!Array.isArray(auth) || auth.length === 0 || auth.length > 100 || !auth.every(isAddress))
    return bad('authorities must be 1-100 addresses');
  if (new Set(auth).size !== auth.length) bad('authorities must be distinct');
  if (!isObject(alloc)) return bad('allocations must be an object');
  const allocations: Record<string, string> = {};
  for (const [a, v] of Object.entries(alloc)) {
    if (!isAddress(a)) bad(`allocation key ${a} is not an address`);
    allocations[a] = isBigIntString(v) ? v : bad(`allocation of ${a} must be a big-integer string`);
  }
  if (!isBigIntString(blockReward)) return bad('blockReward must be a big-integer string');
  if (typeof forks !== 'object' || forks === null) return bad('forks must be an object of heights for 2..6 (and optionally 7)');
  const heights: Record<string, unknown> = { ...forks };
  const out: ForkHeights = {
    2: forkHeight(heights, 2),
    3: forkHeight(heights, 3),
    4: forkHeight(heights, 4),
    5: forkHeight(heights, 5),
    6: forkHeight(heights, 6),
  };
  if (heights['7'] !== undefined) out[7] = forkHeight(heights, 7);
  for (const k of Object.keys(heights)) if (!['2', '3', '4', '5', '6', '7'].includes(k)) bad(`forks.${k} is not a fork`);
  if (finalityDepth !== undefined && (!isUint(finalityDepth) || finalityDepth < 1 || finalityDepth > 100_000))
    return bad('finalityDepth must be 1..100000 blocks');
  return {
    chainId,
    timestamp,
    blockTimeMs,
    authorities: [...auth],
    allocations,
    blockReward,
    forks: out,
    ...(finalityDepth !== undefined ? { finalityDepth } : {}),
  };
}

/**
 * The chain's identity: SHA-256 of `{chainId, timestamp, blockTimeMs, authorities, blockReward}`.
 * The genesis state root chains from it, so two chains never share a genesis hash. Fork
 * heights are left out: operators may override them per node.
 */
export function genesisIdentity(g: Genesis): string {
  return sha256Hex(
    JSON.stringify({
      chainId: g.chainId,
      timestamp: g.timestamp,
      blockTimeMs: g.blockTimeMs,
      authorities: g.authorities,
      blockReward: g.blockReward,
      // Absent on chains that take the default, so their identity is unchanged.
      ...(g.finalityDepth !== undefined ? { finalityDepth: g.finalityDepth } : {}),
    }),
  );
}

/** Applies operator fork-height overrides (OMBRA_FORK_HEIGHT, _V3.._V7, read by cli/). */
export function withForkOverrides(g: Genesis, overrides: Partial<ForkHeights>): Genesis {
  return { ...g, forks: { ...g.forks, ...overrides } };
}

/** The block reward minted at `height` (none from fork 2 on). */
export function blockRewardAt(g: Genesis, height: number): bigint {
  return height > 0 && !forkActive(g.forks, 2, height) ? BigInt(g.blockReward) : 0n;
}
