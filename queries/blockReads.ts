/** Reads over the block log: blocks by height or hash (as objects or their stored JSON), confirmed transactions, address histories. */
import type { Block } from '../core/block.ts';
import { confirmedTx, type ConfirmedTx, listedTx, type ListedTx } from '../core/confirmedTx.ts';
import { ChainError } from '../core/errors.ts';
import type { ReadPorts } from '../node/ports.ts';
import {
  addressHistoryProjection,
  blockHashProjection,
  blockHeightRow,
  historyCountRow,
  historyRows,
  txIndexProjection,
  txLocationRow,
  type TxLocation,
} from '../projections/chainIndex.ts';
import { allTxsProjection, txRunRows } from '../projections/allTxs.ts';
import { BlockJsonCache, type BlockJsonCacheOptions } from './blockJsonCache.ts';
import type { Json } from './schemas/shapes.ts';

/** A block summary as lists show it. */
export function blockSummary(b: Block) {
  return { index: b.index, hash: b.hash, txCount: b.transactions.length, timestamp: b.timestamp, proposer: b.proposer };
}

/** A page of transactions, newest first: `nextCursor` continues after it (null after the oldest), `total` counts the whole list. */
export interface TxPage {
  txs: ListedTx[];
  nextCursor: string | null;
  total: number;
}

/** The block-log half of ChainQueries. */
export class BlockReads {
  protected readonly ports: ReadPorts;
  private readonly json: BlockJsonCache;

  constructor(ports: ReadPorts, blockCache: Partial<BlockJsonCacheOptions> = {}) {
    this.ports = ports;
    this.json = new BlockJsonCache({ block: (i) => this.block(i), epoch: () => ports.chain.epoch() }, blockCache);
  }

  /** The head block. */
  head(): Block {
    return this.ports.chain.head();
  }

  /** The head's height. */
  height(): number {
    return this.ports.chain.head().index;
  }

  /** A block's JSON by height, through the cache of recently read blocks (queries/blockJsonCache.ts). */
  blockJson(index: number): Promise<Json<Block> | undefined> {
    return this.json.get(index);
  }

  /** A block's JSON by height when the cache holds it (answered without waiting: the hot read of explorers). */
  cachedBlockJson(index: number): Json<Block> | undefined {
    return this.json.cached(index);
  }

  /** A block's JSON by hash when the cache holds it. */
  cachedBlockJsonByHash(hash: string): Json<Block> | undefined {
    return this.json.cachedByHash(hash);
  }

  /** A block's JSON by hash, through the cache. */
  async blockJsonByHash(hash: string): Promise<Json<Block> | undefined> {
    const index = await this.blockIndexOf(hash);
    return index === undefined ? undefined : this.json.get(index);
  }

  /** A block by height; NOT_FOUND naming the checkpoint for one a node started from a checkpoint does not hold yet. */
  block(index: number): Promise<Block | undefined> {
    const first = this.ports.blocks.logFrom ?? 1;
    if (index > 0 && index < first && index <= this.height())
      return Promise.reject(
        new ChainError(
          'NOT_FOUND',
          `block ${index} is below this node's checkpoint: it holds blocks from ${first} on until it has fetched the history`,
        ),
      );
    return this.ports.blocks.block(index);
  }

  /** A block by hash. */
  async blockByHash(hash: string): Promise<Block | undefined> {
    const index = await this.blockIndexOf(hash);
    return index === undefined ? undefined : this.block(index);
  }

  private async blockIndexOf(hash: string): Promise<number | undefined> {
    return blockHeightRow.get(await this.ports.models.readable(blockHashProjection), hash);
  }

  /** Blocks from..to inclusive (the caller bounds the range). */
  blocks(from: number, to: number): Promise<Block[]> {
    return this.ports.blocks.blocksIn(Math.max(0, from), Math.min(to, this.height()));
  }

  /** Blocks from..to inclusive (clamped to the head) as their stored JSON's UTF-8 bytes, streamed one at a time. */
  blocksJson(from: number, to: number): AsyncGenerator<Uint8Array> {
    return this.ports.blocks.rangeJsonBytes(Math.max(0, from), Math.min(to, this.height()));
  }

  /** A confirmed transaction by hash. */
  async tx(hash: string): Promise<ConfirmedTx | undefined> {
    const loc = await txLocationRow.get(await this.ports.models.readable(txIndexProjection), hash);
    if (!loc) return undefined;
    const b = await this.block(loc.blockIndex);
    const tx = b?.transactions[loc.position];
    if (!b || !tx) return undefined;
    return confirmedTx(tx, b, loc.position);
  }

  /**
   * An address's transactions, newest first: `limit` of them after skipping `offset`, or from
   * `cursor` (a `nextCursor` an earlier page answered: pages that do not shift as new
   * transactions arrive). O(page) at any depth: the page is a range of the history rows, and
   * each block it touches is read once. `total`: all the address's transactions.
   */
  async addressTxs(address: string, limit: number, offset = 0, cursor?: number): Promise<TxPage> {
    const rows = await this.ports.models.readable(addressHistoryProjection);
    const count = (await historyCountRow.get(rows, address)) ?? 0;
    const top = Math.min(count - 1, cursor ?? count - 1) - offset;
    if (top < 0 || limit === 0) return { txs: [], nextCursor: top < 0 ? null : String(top), total: count };
    // Each row is one block's run of the address's transactions; the first one read holds `top`.
    const page: TxLocation[] = [];
    for await (const v of historyRows.values(rows, address, { from: 0, through: top, reverse: true, limit })) {
      const [seq, blockIndex] = v;
      for (let n = Math.min(top, seq + v.length - 3); n >= seq && page.length < limit; n--)
        page.push({ blockIndex, position: v[2 + n - seq] });
      if (page.length >= limit) break;
    }
    const last = top - page.length + 1;
    return { txs: await this.listed(page), nextCursor: last > 0 ? String(last - 1) : null, total: count };
  }

  /**
   * Every transaction of the chain, newest first: `limit` of them after skipping `offset`, or
   * from `cursor` (a `nextCursor` an earlier page answered: the number of the transaction to start
   * at, so pages do not shift as blocks arrive). O(page) at any depth: the page is a range of the
   * global numbering's rows (projections/allTxs.ts), one per block it touches, each block read once.
   */
  async allTxs(limit: number, offset = 0, cursor?: number): Promise<TxPage> {
    // The count before the wait: the rows of every transaction it counts are written once `readable` resolves.
    const count = this.ports.models.state(allTxsProjection).count;
    const rows = await this.ports.models.readable(allTxsProjection);
    const top = Math.min(count - 1, cursor ?? count - 1) - offset;
    if (top < 0 || limit === 0) return { txs: [], nextCursor: top < 0 ? null : String(top), total: count };
    const page: TxLocation[] = [];
    for await (const [seq, blockIndex, n] of txRunRows.values(rows, undefined, { through: top, reverse: true, limit })) {
      for (let k = Math.min(top, seq + n - 1); k >= seq && page.length < limit; k--) page.push({ blockIndex, position: k - seq });
      if (page.length >= limit) break;
    }
    const last = top - page.length + 1;
    return { txs: await this.listed(page), nextCursor: last > 0 ? String(last - 1) : null, total: count };
  }

  /** The transactions at `page`'s places, in its order, each block read once. */
  private async listed(page: readonly TxLocation[]): Promise<ListedTx[]> {
    const blocks = new Map<number, Block | undefined>();
    const txs: ListedTx[] = [];
    for (const r of page) {
      if (!blocks.has(r.blockIndex)) blocks.set(r.blockIndex, await this.block(r.blockIndex));
      const b = blocks.get(r.blockIndex);
      const tx = b?.transactions[r.position];
      if (b && tx) txs.push(listedTx(tx, b, r.position));
    }
    return txs;
  }
}
