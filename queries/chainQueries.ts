/** Reads over the block log and the projections: what the REST API serves. */
import { formatUnits } from '../core/encoding.ts';
import { blockRewardAt, type Genesis } from '../core/genesis.ts';
import type { Account, ChainState, Miner } from '../core/state.ts';
import { minerFigures, minerStatsProjection } from '../projections/minerStats.ts';

/** A miner as served: consensus record plus read-model figures. */
export type MinerRecord = Miner & { reputationScore: number; tasksCompleted: number };
import { statsRecord, chainStatsProjection } from '../projections/chainStats.ts';
import { bucketLabels, holderRows, holdersProjection } from '../projections/holders.ts';
import { circulating, supplyProjection } from '../projections/supply.ts';
import type { ReadPorts } from '../node/ports.ts';
import type { RecordDef } from '../core/record.ts';
import { MINERS } from '../core/tx/miner.ts';
import { recordListsProjection, type ListedKind } from '../projections/recordLists.ts';
import { recordListPage } from './recordListPage.ts';
import { readAccount, readRecord, readRecords } from './stateReads.ts';
import { topHolders } from './topHolders.ts';
import { BlockReads } from './blockReads.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import type { ConfirmedTx } from '../core/confirmedTx.ts';

/** Query facade for one node: the block log's reads (queries/blockReads.ts) and the rest. */
export class ChainQueries extends BlockReads {
  /** The chain's genesis (with operator fork overrides). */
  genesis(): Genesis {
    return this.ports.chain.genesis;
  }

  /**
   * The reward the next block mints (the genesis `blockReward` before fork 2, none from then
   * on): the one figure behind /api/chain/params `blockReward` and the supply's `rewardPerBlock`.
   */
  rewardPerBlock(): bigint {
    return blockRewardAt(this.ports.chain.genesis, this.nextHeight());
  }

  /** Height of the next block. */
  nextHeight(): number {
    return this.ports.chain.nextHeight();
  }

  /** Equivocations this node has seen, newest slot first. */
  evidence(): { count: number; evidence: ReturnType<ReadPorts['evidence']['list']> } {
    const evidence = this.ports.evidence.list();
    return { count: evidence.length, evidence };
  }

  /** A transaction waiting in the mempool. */
  pendingTx(hash: string): SignedTx | undefined {
    return this.ports.mempool.get(hash);
  }

  /**
   * A transaction as confirmed (with its block) or pending; undefined when it is neither. The
   * writer folds a block before it takes the block's transactions out of the mempool, so a read
   * that finds the transaction in neither place may have read the index just before the fold and
   * the mempool just after it: the index is read again then (it waits for the folded rows), so a
   * transaction being included never reads as unknown.
   */
  async txStatus(hash: string): Promise<{ status: 'confirmed'; tx: ConfirmedTx } | { status: 'pending'; tx: SignedTx } | undefined> {
    const confirmed = await this.tx(hash);
    if (confirmed) return { status: 'confirmed', tx: confirmed };
    const pending = this.pendingTx(hash);
    if (pending) return { status: 'pending', tx: pending };
    const late = await this.tx(hash);
    return late ? { status: 'confirmed', tx: late } : undefined;
  }

  /** The mempool's transactions, oldest first. */
  pendingTxs(): SignedTx[] {
    return this.ports.mempool.list();
  }

  state(): ChainState {
    return this.ports.chain.state();
  }

  /** An account's state (an unknown address is an empty account): the state's cache, else its row. */
  account(address: string): Promise<Readonly<Account>> {
    return readAccount(this.ports, address);
  }

  /** A consensus record by id: the state's cache, else its row (core/recordCache.ts). */
  record<T>(rec: RecordDef<string, T>, id: string): Promise<T | undefined> {
    return readRecord(this.ports, rec, id);
  }

  /** Consensus records by id, in order (undefined where there is none). */
  records<T>(rec: RecordDef<string, T>, ids: readonly string[]): Promise<(T | undefined)[]> {
    return readRecords(this.ports, rec, ids);
  }

  /** `limit` ids from `offset` of a record list (projections/recordLists.ts), with the list's size: O(page) at any offset. */
  async listPage(kind: ListedKind, limit: number, offset: number, owner?: string): Promise<{ total: number; ids: string[] }> {
    // The size before the wait: the rows of every record it counts are written once `readable` resolves.
    const total = this.ports.models.state(recordListsProjection).counts[kind];
    return recordListPage(await this.ports.models.readable(recordListsProjection), kind, limit, offset, owner, total);
  }

  /** A miner record with its reputation and completed tasks. */
  minerFigures(m: Miner): MinerRecord {
    return { ...m, ...minerFigures(this.ports.models.state(minerStatsProjection), m.id) };
  }

  /** A miner with its reputation and completed tasks. */
  async miner(id: string): Promise<MinerRecord | undefined> {
    const m = await this.record(MINERS, id);
    return m && this.minerFigures(m);
  }

  async minerOf(address: string): Promise<MinerRecord | undefined> {
    const id = (await this.account(address)).minerId;
    return id ? this.miner(id) : undefined;
  }

  /** The account record: balance, nonce, miner, the 50 most recent transactions. */
  async accountRecord(address: string) {
    // The pending run's end is read before the account: a block that lands in between moves the
    // account's nonce up to at most that end, so the larger of the two is the next nonce either
    // way (read the other way round, a block taking the run would be counted twice or not at all).
    const pendingEnd = this.ports.mempool.pendingEnd(address) ?? 0;
    const a = await this.account(address);
    const miner = await this.minerOf(address);
    return {
      address,
      balance: a.balance.toString(),
      nonce: a.nonce,
      // The nonce a new transaction should carry: after what it has pending.
      nextNonce: Math.max(a.nonce, pendingEnd),
      isMiner: miner !== undefined,
      ...(miner ? { miner } : {}),
      recentTxs: (await this.addressTxs(address, 50)).txs,
    };
  }

  /** The wallet balance record with storage capacity. */
  async walletRecord(address: string) {
    const a = await this.account(address);
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
    return statsRecord(
      this.ports.models.state(chainStatsProjection),
      this.ports.models.state(recordListsProjection).counts.miners,
      p2pPeers,
    );
  }

  /** The supply record. */
  supply() {
    const s = this.ports.models.state(supplyProjection);
    return {
      totalEmitted: s.totalEmitted,
      circulating: circulating(s).toString(),
      totalBurned: s.totalBurned,
      escrow: s.escrow,
      feesPaid: s.feesPaid,
      blocksProduced: s.blocksProduced,
      rewardPerBlock: this.rewardPerBlock().toString(),
    };
  }

  /** The holders record: count, supply, `limit` balances ranked from `offset` (queries/topHolders.ts: O(offset + limit) a request). */
  async holders(limit: number, offset = 0) {
    const total = circulating(this.ports.models.state(supplyProjection));
    const totalHolders = this.ports.models.state(holdersProjection).totalHolders;
    // Past the last holder there is nothing to rank.
    const ranked = offset >= totalHolders ? [] : await topHolders(this.ports.models, limit, offset);
    return { totalHolders, totalSupply: total.toString(), holders: holderRows(ranked, total) };
  }

  /** The distribution record. */
  distribution() {
    const counts = this.ports.models.state(holdersProjection).buckets;
    return { buckets: bucketLabels().map((range, i) => ({ range, count: counts[i] })) };
  }
}
