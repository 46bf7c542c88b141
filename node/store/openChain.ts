/**
 * Opening a data dir: the stored genesis checked against the given one (or written, for a new
 * chain), the log's hash chain verified near the head, and the store reopened clean. The first
 * step of `OmbraNode.open`; the read models are caught up only when the node starts.
 */
import { genesisState } from '../../core/applyBlock.ts';
import type { Block } from '../../core/block.ts';
import { ChainError, present } from '../../core/errors.ts';
import { withForkOverrides, type ForkHeights, type Genesis } from '../../core/genesis.ts';
import { DEFAULT_ACCOUNT_CACHE, DEFAULT_RECORD_CACHE } from '../../core/recordCache.ts';
import type { ChainInfo } from '../../projections/events.ts';
import { ChainStore } from './chainStore.ts';
import { genesisMismatch } from './genesisCheck.ts';
import type { HealthOptions } from '../healthMonitor.ts';
import type { Logger } from '../log.ts';
import { DEFAULT_VERIFY_DEPTH, DEFAULT_VERIFY_TXS, verifyLog } from './logIntegrity.ts';
import type { MempoolOptions } from '../mempool/mempoolOptions.ts';
import { explainCorruption, LogIntegrityError } from './storeDamage.ts';
import { dirname, resolve } from 'node:path';

/** How to open a node. */
export interface NodeOptions {
  /** LevelDB directory. */
  dbDir: string;
  /** The genesis file's content; required for a new data dir, checked against an existing one. */
  genesis?: Genesis;
  /** Operator fork-height overrides (OMBRA_FORK_HEIGHT...). */
  forkOverrides?: Partial<ForkHeights>;
  mempool?: Partial<MempoolOptions>;
  /**
   * Blocks back from the head whose hash chain is checked on open (default 1,000, or fewer once
   * 20,000 transactions are checked; Infinity = the whole log).
   */
  verifyDepth?: number;
  /** `ombra repair` opens a data dir whose damage it is about to repair (node/store/storeDamage.ts). */
  repairing?: boolean;
  /** When block work counts as failing (defaults in node/healthMonitor.ts). */
  health?: Partial<HealthOptions>;
  clock?: () => number;
  log?: Logger;
  /** Blocks back from the head whose undo records are kept for reorganisations (default 128). */
  undoDepth?: number;
  /**
   * Finished records (tasks, runs, NFTs, posts...) the consensus state keeps in memory per kind;
   * the rest are read from disk when a block needs them (default 4,096; Infinity keeps all).
   */
  recordCache?: number;
  /**
   * Accounts the consensus state keeps in memory, and address-history counts the read models
   * keep; the rest are read from disk when a block or a query needs them (default 65,536;
   * Infinity keeps all; with `recordCache` Infinity the state keeps every account too).
   */
  accountCache?: number;
  /** Progress callback while catching projections up from the log. */
  onCatchUp?: (height: number, head: number) => void;
  /** Start once opened (default true); false leaves `start` to the caller's `Lifecycle`. */
  start?: boolean;
  /** Observer of block work (metrics): seconds each import or production took, or its error. */
  onBlockWork?: (kind: 'import' | 'produce', seconds: number, error?: unknown) => void;
}

/** An opened, verified data dir: its store, the chain's identity and the head block. */
export interface OpenedChain {
  store: ChainStore;
  genesis: Genesis;
  info: ChainInfo;
  tip: Block;
}

/** Opens the data dir and writes genesis if new; refuses a different genesis and a damaged log. */
export async function openChain(opts: NodeOptions): Promise<OpenedChain> {
  const dataDir = dirname(resolve(opts.dbDir));
  let store = await ChainStore.open(opts.dbDir);
  try {
    // A missing or damaged head pointer: nothing below can be read without one.
    if (!store.head() && store.damage) throw new LogIntegrityError(store.damage, dataDir);
    const stored = await store.genesis();
    const raw = stored ?? opts.genesis;
    if (!raw) throw new ChainError('INVALID_PARAMS', 'this data dir has no chain yet: pass --genesis FILE or --dev');
    if (stored && opts.genesis) {
      const why = genesisMismatch(stored, opts.genesis);
      if (why) throw new ChainError('INVALID_PARAMS', `this data dir was created with a different genesis (${why})`);
    }
    const genesis = withForkOverrides(raw, opts.forkOverrides ?? {});
    const { state, block } = genesisState(genesis);
    if (!stored) await store.init(raw, block);
    const block0 = await store.block(0);
    if (!block0 || block0.hash !== block.hash) throw new Error('stored genesis block does not match the genesis file');
    // The log's own facts first (they name the exact height), then what LevelDB lost or skipped.
    const depth = opts.verifyDepth ?? DEFAULT_VERIFY_DEPTH;
    const fault = await verifyLog(store, { depth, txs: depth === Number.POSITIVE_INFINITY ? depth : DEFAULT_VERIFY_TXS });
    if (fault) throw new LogIntegrityError(fault, dataDir);
    // The check read its window through LevelDB's memory-mapped table files, whose pages stay
    // resident until the tables close (45 MiB for 400 blocks of 500 transactions): a sound
    // store is closed (recording the verified head) and opened afresh without them.
    if (!store.damage) {
      await store.close();
      store = await ChainStore.open(opts.dbDir);
    }
    if (store.damage && !opts.repairing) throw new LogIntegrityError(store.damage, dataDir);
    const head = present(store.head(), 'the head of the checked log');
    const tip = await store.storedBlock(head.index);
    const info = {
      genesis,
      genesisBlock: block,
      genesisState: state,
      recordCache: opts.recordCache ?? DEFAULT_RECORD_CACHE,
      accountCache: opts.accountCache ?? DEFAULT_ACCOUNT_CACHE,
    };
    return { store, genesis, info, tip };
  } catch (e) {
    await store.close();
    throw explainCorruption(e, dataDir);
  }
}
