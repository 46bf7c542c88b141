/**
 * The write model: the append-only block log in LevelDB. One batch per block (block + head),
 * synced to disk, so an acknowledged block survives `kill -9` and power loss alike.
 * Projection and node-local data live in their own sublevels of the same database.
 */
import { ClassicLevel } from 'classic-level';
import { Level } from 'level';
import type { Block } from '../../core/block.ts';
import type { Genesis } from '../../core/genesis.ts';
import { heightKey } from '../../core/encoding.ts';
import { dirname, resolve } from 'node:path';
import { fenceWrites, StorageFence } from './storageFence.ts';
import { damageOnOpen, explainCorruption, headPointerOf, type LogFault, readStopRecord, writeStopRecord } from './storeDamage.ts';
import type { Rows } from '../../projections/store.ts';
import { BlockReads, type Head } from './blockReads.ts';
import { type RowWrite, writeRows } from './writeRows.ts';
import { VerifiedLog, VERIFIED_SEED, type VerifiedMark } from '../verification/verifiedLog.ts';

type Db = Level<string, unknown>;
type Sub = Rows;

/**
 * LevelDB's sizes for a store of millions of rows written in random key order (accounts and
 * history rows of new addresses): with LevelDB's defaults (2 MiB tables, 1,000 open at most) a
 * 10 GB store spans ~5,000 tables, so a read of a key not yet written reopens tables and their
 * filters; 16 MiB tables keep them all open. The memory is the cache plus at most two memtables,
 * and on a serving node it fills slowly (a memtable flushes after 4 MiB of writes, the cache
 * fills with what is read) and malloc keeps it: with a 32 MiB cache and 16 MiB memtables a
 * follower's memory rose ~60 MiB over its first 90 minutes (docs/memory.md). At 8 and 4 MiB the
 * rebuilds and replays of `npm run bench -- --only replay` ran at the same rates (within their
 * runs' spread).
 */
const LEVEL_TUNING = { cacheSize: 8 << 20, writeBufferSize: 4 << 20, maxFileSize: 16 << 20 };

/** LevelDB-backed block log. */
export class ChainStore extends BlockReads {
  readonly db: Db;
  readonly blocks: Sub;
  readonly meta: Sub;
  private readonly subs = new Map<string, Sub>();
  /** Each handed-out sublevel's key prefix (`!name!`), for writes that bypass its encoding. */
  private readonly prefixes = new Map<Sub, string>();
  private readonly dir: string;
  /** Damage LevelDB showed on open and no repair has cleared (node/store/storeDamage.ts); null: none. */
  damage: LogFault | null = null;
  /** Stops every write after the first that failed on an I/O error, a full disk above all (node/store/storageFence.ts). */
  readonly fence: StorageFence;
  /**
   * The lowest block above 0 the log holds, every block from it to the head stored: 1, unless
   * the node started from a checkpoint (checkpoint/checkpointRecord.ts) whose history is not yet fetched.
   */
  logFrom = 1;
  /** Through which height this node verified every signature itself (node/verification/verifiedLog.ts). */
  verified: VerifiedLog;

  private constructor(db: Db, dir: string) {
    super();
    this.db = db;
    this.dir = dir;
    this.fence = new StorageFence(dirname(resolve(dir)));
    fenceWrites(db, this.fence);
    this.blocks = this.sublevel('blocks');
    this.meta = this.sublevel('meta');
    this.verified = new VerifiedLog({ meta: this.meta, digests: this.sublevel('verifiedDigests') }, undefined);
  }

  /**
   * Opens (creating if needed) the database in `dir`, and notes damage LevelDB showed on open
   * (kept in the stop record until a repair clears it). LevelDB corruption at open is thrown as
   * the operator's one-line LogIntegrityError.
   */
  static async open(dir: string, opts: { createIfMissing?: boolean } = {}): Promise<ChainStore> {
    const dataDir = dirname(resolve(dir));
    const db = new Level<string, unknown>(dir, { valueEncoding: 'json', createIfMissing: opts.createIfMissing ?? true, ...LEVEL_TUNING });
    try {
      await db.open();
    } catch (e) {
      throw explainCorruption(e, dataDir, 'LevelDB cannot open it');
    }
    const store = new ChainStore(db, dir);
    let pointer: Awaited<ReturnType<typeof headPointerOf>>;
    try {
      pointer = await headPointerOf(store.meta, store.blocks);
    } catch (e) {
      await db.close();
      throw explainCorruption(e, dataDir, 'the head pointer cannot be read');
    }
    store.headCache = pointer.head;
    store.logFrom = ((await store.meta.get('checkpoint')) as { logFrom?: number } | undefined)?.logFrom ?? 1;
    const mark = (await store.meta.get('verified')) as VerifiedMark | undefined;
    store.verified = new VerifiedLog({ meta: store.meta, digests: store.sublevel('verifiedDigests') }, mark);
    store.damage = pointer.fault ?? damageOnOpen(dir, store.headCache);
    const record = readStopRecord(dir);
    if (store.damage && !record?.damage && store.headCache) writeStopRecord(dir, { ...(record ?? store.headCache), damage: store.damage });
    return store;
  }

  /** Bytes LevelDB holds in memory now (memtables and block cache); 0 while the store is closed. */
  memoryBytes(): number {
    // `level` is classic-level on Node; its type does not list the LevelDB properties.
    if (this.db.status !== 'open' || !(this.db instanceof ClassicLevel)) return 0;
    const v = Number(this.db.getProperty('leveldb.approximate-memory-usage'));
    return Number.isFinite(v) ? v : 0;
  }

  /** A repair has dealt with the damage: the next clean stop records the head as sound. */
  clearDamage(): void {
    this.damage = null;
  }

  /** Writes ops across sublevels in one atomic batch (the projection runner's port; node/store/writeRows.ts). */
  write(ops: readonly RowWrite[], opts: { sync?: boolean; dedupe?: boolean } = {}): Promise<void> {
    return writeRows(this.db, (sub) => this.prefixOf(sub), ops, opts);
  }

  /** The root-key prefix of a sublevel this store handed out (anything else is refused). */
  private prefixOf(sub: unknown): string {
    const prefix = this.prefixes.get(sub as Sub);
    if (prefix === undefined) throw new Error('write: a sublevel of another store');
    return prefix;
  }

  /** A named sublevel for a projection or node-local data (the same one for the same name). */
  sublevel(name: string): Sub {
    let sub = this.subs.get(name);
    if (!sub) {
      sub = this.db.sublevel<string, unknown>(name, { valueEncoding: 'json' });
      this.subs.set(name, sub);
      this.prefixes.set(sub, sub.prefix);
    }
    return sub;
  }

  /** The genesis this data dir was created with, if any. */
  async genesis(): Promise<Genesis | undefined> {
    return (await this.meta.get('genesis')) as Genesis | undefined;
  }

  /** Writes genesis and block 0; refuses when the log is not empty. */
  async init(genesis: Genesis, block0: Block): Promise<void> {
    if (this.headCache) throw new Error('chain store already initialised');
    const head: Head = { index: 0, hash: block0.hash };
    const ops = [
      { type: 'put', sublevel: this.meta, key: 'genesis', value: genesis },
      { type: 'put', sublevel: this.blocks, key: heightKey(0), value: block0 },
      { type: 'put', sublevel: this.meta, key: 'head', value: head },
      { type: 'put', sublevel: this.meta, key: 'verified', value: { height: 0, digest: VERIFIED_SEED } },
    ];
    await this.db.batch(ops as never, { sync: true });
    this.headCache = head;
    this.verified.recorded = true;
  }

  /** Appends the next block and moves the head, atomically and durably. */
  async append(block: Block): Promise<void> {
    await this.appendMany([block]);
  }

  /**
   * Appends consecutive blocks and moves the head in one synced batch (group commit: a catch-up
   * pays one disk sync for many blocks; none of them is visible before all are durable).
   * `trusted[i]`: block i was taken with its signatures unchecked (assume-valid sync); the
   * verified mark (node/verification/verifiedLog.ts) moves, in the same batch, over the blocks checked here.
   */
  async appendMany(blocks: readonly Block[], opts: { trusted?: readonly boolean[] } = {}): Promise<void> {
    const start = this.headCache;
    let head = start;
    const ops: RowWrite[] = [];
    const texts: string[] = [];
    for (const block of blocks) {
      if (!head || block.index !== head.index + 1 || block.previousHash !== head.hash) {
        throw new Error(`append out of order: block ${block.index} on head ${head?.index}`);
      }
      const text = JSON.stringify(block);
      texts.push(text);
      ops.push({ type: 'put', sublevel: this.blocks, key: heightKey(block.index), text });
      head = { index: block.index, hash: block.hash };
    }
    if (!start || !head || ops.length === 0) return;
    const move = this.verified.extend(start.index, texts, (i) => opts.trusted?.[i] !== true);
    ops.push({ type: 'put', sublevel: this.meta, key: 'head', value: head }, ...move.ops);
    await this.write(ops, { sync: true });
    this.headCache = head;
    this.verified.commit(move);
  }

  /**
   * Records that a replay verified every signature of blocks 1..`mark.height` (the digests it
   * computed at every multiple of DIGEST_EVERY in `kept`), in one batch.
   */
  async recordVerified(mark: VerifiedMark, kept: ReadonlyMap<number, string>): Promise<void> {
    if (!this.headCache || mark.height > this.headCache.index) throw new Error(`recordVerified: height ${mark.height} above the head`);
    await this.write(this.verified.recordOps(mark, kept), { sync: true });
    this.verified.commitRecord(mark);
  }

  /**
   * Replaces every block after `ancestor` with `blocks` (a reorganisation), atomically: the old
   * suffix, the new blocks, the head and `also` (writes elsewhere that must move with them) in one
   * synced batch.
   */
  async replaceSuffix(ancestor: number, blocks: Block[], also: readonly unknown[] = []): Promise<void> {
    const head = this.headCache;
    if (!head || ancestor > head.index || blocks.length === 0 || blocks[0].index !== ancestor + 1)
      throw new Error('replaceSuffix: blocks must follow the ancestor');
    const ops: unknown[] = [];
    for (let i = ancestor + 1; i <= head.index; i++) ops.push({ type: 'del', sublevel: this.blocks, key: heightKey(i) });
    // The branch was validated with every signature: the mark, cut back to the ancestor, moves over it.
    const cut = await this.verified.cutTo(ancestor);
    const texts = blocks.map((b) => JSON.stringify(b));
    const move = this.verified.extend(ancestor, texts, () => true, cut.next);
    for (const b of blocks) ops.push({ type: 'put', sublevel: this.blocks, key: heightKey(b.index), value: b });
    const tip = blocks[blocks.length - 1];
    const next: Head = { index: tip.index, hash: tip.hash };
    ops.push({ type: 'put', sublevel: this.meta, key: 'head', value: next }, ...cut.ops, ...move.ops, ...also);
    await this.db.batch(ops as never, { sync: true });
    this.headCache = next;
    this.verified.commitCut(cut.next);
    this.verified.commit(move);
  }

  /**
   * Cuts the log back to `last` (a repair): every stored block above it, the head pointer's
   * target or not, goes in one synced batch with the head moving to `last`.
   */
  async truncateTo(last: Block): Promise<number> {
    const ops: unknown[] = [];
    for await (const key of this.blocks.keys({ gt: heightKey(last.index) })) ops.push({ type: 'del', sublevel: this.blocks, key });
    const removed = ops.length;
    const head: Head = { index: last.index, hash: last.hash };
    const cut = await this.verified.cutTo(last.index);
    ops.push({ type: 'put', sublevel: this.meta, key: 'head', value: head }, ...cut.ops);
    await this.db.batch(ops as never, { sync: true });
    this.headCache = head;
    this.verified.commitCut(cut.next);
    return removed;
  }

  /** Closes the database and records the head it stopped at (unless damage awaits a repair). */
  async close(): Promise<void> {
    await this.db.close();
    // A fenced store keeps the record of its last clean stop (its head is no later than the disk's, and the disk may be full).
    if (!this.damage && !this.fence.fault && this.headCache)
      writeStopRecord(this.dir, { index: this.headCache.index, hash: this.headCache.hash });
  }
}
