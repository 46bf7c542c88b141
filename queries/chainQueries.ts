/** Reads over the block log and the projections: what the REST API serves. */
import type { Block } from '../core/block.ts';
import { formatUnits } from '../core/encoding.ts';
import { blockRewardAt } from '../core/genesis.ts';
import type { Account, ChainState, Miner } from '../core/state.ts';
import { minerFigures, type MinerStats } from '../projections/minerStats.ts';

/** A miner as served: consensus record plus read-model figures. */
export type MinerRecord = Miner & { reputationScore: number; tasksCompleted: number };
import type { SignedTx } from '../core/tx/handler.ts';
import type { TxLocation } from '../projections/chainIndex.ts';
import { statsRecord, type ChainStats } from '../projections/chainStats.ts';
import { bucketLabels, topHolders, type HoldersState } from '../projections/holders.ts';
import { circulating, type SupplyState } from '../projections/supply.ts';
import type { OmbraNode } from '../node/node.ts';

/** A confirmed transaction as served: the signed tx plus where and when it landed. */
export type ConfirmedTx = SignedTx & { blockIndex: number; blockHash: string; position: number };

/** Query facade for one node. */
export class ChainQueries {
  readonly node: OmbraNode;
  private holdersCache: { height: number; limit: number; value: unknown } | null = null;

  constructor(node: OmbraNode) {
    this.node = node;
  }

  height(): number {
    return this.node.head().index;
  }

  /** A block by height. */
  block(index: number): Promise<Block | undefined> {
    return this.node.store.block(index);
  }

  /** A block by hash. */
  async blockByHash(hash: string): Promise<Block | undefined> {
    const index = (await (await this.node.runner.readable('blockHash')).get(hash)) as number | undefined;
    return index === undefined ? undefined : this.block(index);
  }

  /** Blocks from..to inclusive (the caller bounds the range). */
  blocks(from: number, to: number): Promise<Block[]> {
    return this.node.store.blocksIn(Math.max(0, from), Math.min(to, this.height()));
  }

  /** A confirmed transaction by hash. */
  async tx(hash: string): Promise<ConfirmedTx | undefined> {
    const loc = (await (await this.node.runner.readable('txIndex')).get(hash)) as TxLocation | undefined;
    if (!loc) return undefined;
    const b = await this.block(loc.blockIndex);
    const tx = b?.transactions[loc.position];
    if (!b || !tx) return undefined;
    return { ...tx, blockIndex: b.index, blockHash: b.hash, position: loc.position, timestamp: tx.timestamp };
  }

  /** An address's transactions, newest first. */
  async addressTxs(address: string, limit: number, offset = 0): Promise<ConfirmedTx[]> {
    const rows = await this.node.runner.readable('addressHistory');
    const hashes: string[] = [];
    let skipped = 0;
    for await (const h of rows.values({ gte: `${address}!`, lt: `${address}!~`, reverse: true })) {
      if (skipped++ < offset) continue;
      hashes.push(h as string);
      if (hashes.length >= limit) break;
    }
    const out: ConfirmedTx[] = [];
    for (const h of hashes) {
      const t = await this.tx(h);
      if (t) out.push(t);
    }
    return out;
  }

  /** Address keys with this prefix that have history (partial-address search). */
  async addressesWithPrefix(prefix: string, limit: number): Promise<string[]> {
    const out: string[] = [];
    const state = this.state();
    for (const a of state.accounts.keys()) {
      if (a.startsWith(prefix)) out.push(a);
      if (out.length >= limit) break;
    }
    return out.sort();
  }

  state(): ChainState {
    return this.node.state();
  }

  /** An account's state (an unknown address is an empty account). */
  account(address: string): Readonly<Account> {
    return this.state().accounts.get(address) ?? { balance: 0n, nonce: 0, storageCapacity: 0n, storageUsed: 0n };
  }

  /** A miner with its reputation and completed tasks. */
  miner(id: string): MinerRecord | undefined {
    const m = this.state().records.miners.get(id);
    return m && { ...m, ...minerFigures(this.node.runner.state<MinerStats>('minerStats'), id) };
  }

  minerOf(address: string): MinerRecord | undefined {
    const id = this.state().accounts.get(address)?.minerId;
    return id ? this.miner(id) : undefined;
  }

  /** The account record: balance, nonce, miner, the 50 most recent transactions. */
  async accountRecord(address: string) {
    const a = this.account(address);
    const miner = this.minerOf(address);
    return {
      address,
      balance: a.balance.toString(),
      nonce: a.nonce,
      // The nonce a new transaction should carry: the account's plus what it has pending.
      nextNonce: a.nonce + this.node.mempool.pending(address).count,
      isMiner: miner !== undefined,
      ...(miner ? { miner } : {}),
      recentTxs: await this.addressTxs(address, 50),
    };
  }

  /** The wallet balance record with storage capacity. */
  walletRecord(address: string) {
    const a = this.account(address);
    return {
      address,
      balance: a.balance.toString(),
      balanceOmbra: formatUnits(a.balance),
      nonce: a.nonce,
      storageCapacity: a.storageCapacity.toString(),
      storageUsed: a.storageUsed.toString(),
      storageFree: (a.storageCapacity - a.storageUsed).toString(),
    };
  }

  /** The chain stats record. */
  stats(p2pPeers: number) {
    return statsRecord(this.node.runner.state<ChainStats>('chainStats'), this.state().records.miners.size, p2pPeers);
  }

  /** The supply record. */
  supply() {
    const s = this.node.runner.state<SupplyState>('supply');
    return {
      totalEmitted: s.totalEmitted,
      circulating: circulating(s).toString(),
      totalBurned: s.totalBurned,
      escrow: s.escrow,
      feesPaid: s.feesPaid,
      blocksProduced: s.blocksProduced,
      rewardPerBlock: blockRewardAt(this.node.genesis, this.height() + 1).toString(),
    };
  }

  /** The holders record: count, supply, the top `limit` balances (ranked once per height). */
  holders(limit: number) {
    const h = this.height();
    if (this.holdersCache && this.holdersCache.height === h && this.holdersCache.limit === limit) return this.holdersCache.value;
    const s = this.node.runner.state<SupplyState>('supply');
    const total = circulating(s);
    const value = {
      totalHolders: this.node.runner.state<HoldersState>('holders').totalHolders,
      totalSupply: total.toString(),
      holders: topHolders(this.state().accounts, limit, total),
    };
    this.holdersCache = { height: h, limit, value };
    return value;
  }

  /** The distribution record. */
  distribution() {
    const counts = this.node.runner.state<HoldersState>('holders').buckets;
    return { buckets: bucketLabels().map((range, i) => ({ range, count: counts[i] })) };
  }
}
