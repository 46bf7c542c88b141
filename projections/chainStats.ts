/** Chain statistics over the tip and a window of recent blocks. */
import type { BlockEvent, ChainInfo } from './events.ts';
import { heightKey } from '../core/encoding.ts';
import type { KvOp, Projection } from './projection.ts';

/** Blocks the "recent" figures look back over. */
export const RECENT_WINDOW = 100;

/** One recent block's figures (its row). */
export interface RecentBlock {
  index: number;
  timestamp: number;
  txCount: number;
  proposer: string;
  /** Micro-units newly paid out in the block (block reward), as a string. */
  rewards: string;
  hash: string;
  /** Transactions in the chain up to and including this block. */
  totalTxs: number;
}

/** Chain statistics state. */
export interface ChainStats {
  height: number;
  latestBlockHash: string;
  latestTimestamp: number;
  totalTxs: number;
  recent: RecentBlock[];
}

/** The tip figures as the newest recent block (or genesis, before any) gives them. */
function withTip(s: ChainStats, tip: RecentBlock | undefined): ChainStats {
  if (tip) {
    s.height = tip.index;
    s.latestBlockHash = tip.hash;
    s.latestTimestamp = tip.timestamp;
    s.totalTxs = tip.totalTxs;
  }
  return s;
}

/**
 * Height, tip, totals and the recent-block window. Each block is one row (`heightKey(index)`)
 * carrying the tip figures after it, and the row leaving the window is deleted: a block costs
 * two row writes, and the state is rebuilt from the rows on restore.
 */
export const chainStatsProjection: Projection<ChainStats> = {
  name: 'chainStats',
  // v2: the window as one row a block instead of a saved state.
  version: 2,
  init: (info: ChainInfo) => ({
    height: 0,
    latestBlockHash: info.genesisBlock.hash,
    latestTimestamp: info.genesisBlock.timestamp,
    totalTxs: 0,
    recent: [],
  }),
  apply(s, ev: BlockEvent) {
    const b = ev.block;
    const row: RecentBlock = {
      index: b.index,
      timestamp: b.timestamp,
      txCount: b.transactions.length,
      proposer: b.proposer,
      rewards: ev.emitted.toString(),
      hash: b.hash,
      totalTxs: s.totalTxs + b.transactions.length,
    };
    s.recent.push(row);
    const ops: KvOp[] = [{ type: 'put', key: heightKey(b.index), value: row, fresh: true }];
    // Blocks are consecutive: the one leaving is index - WINDOW.
    if (s.recent.length > RECENT_WINDOW) ops.push({ type: 'del', key: heightKey(b.index - RECENT_WINDOW), prev: s.recent.shift() });
    return { state: withTip(s, row), ops };
  },
  async restore(rows, info) {
    const s = chainStatsProjection.init(info);
    for await (const [, value] of rows) s.recent.push(value as RecentBlock);
    return withTip(s, s.recent[s.recent.length - 1]);
  },
};

/** The record `/api/chain/stats` answers, minus what the network layer adds. */
export function statsRecord(s: ChainStats, totalMiners: number, p2pPeers: number) {
  const proposers = new Set(s.recent.map((r) => r.proposer));
  return {
    height: s.height,
    latestBlockHash: s.latestBlockHash,
    totalMiners,
    recentTxCount: s.recent.reduce((n, r) => n + r.txCount, 0),
    recentRewards: s.recent.reduce((n, r) => n + BigInt(r.rewards), 0n).toString(),
    activeProposers: proposers.size,
    p2pPeers,
  };
}
