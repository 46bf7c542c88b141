/** Chain statistics over the tip and a window of recent blocks. */
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

/** Blocks the "recent" figures look back over. */
export const RECENT_WINDOW = 100;

/** One recent block's figures. */
export interface RecentBlock {
  index: number;
  timestamp: number;
  txCount: number;
  proposer: string;
  /** Micro-units newly paid out in the block (block reward), as a string. */
  rewards: string;
}

/** Chain statistics state. */
export interface ChainStats {
  height: number;
  latestBlockHash: string;
  latestTimestamp: number;
  totalTxs: number;
  recent: RecentBlock[];
}

/** Height, tip, totals and the recent-block window. */
export const chainStatsProjection: Projection<ChainStats> = {
  name: 'chainStats',
  version: 1,
  init: (info: ChainInfo) => ({
    height: 0,
    latestBlockHash: info.genesisBlock.hash,
    latestTimestamp: info.genesisBlock.timestamp,
    totalTxs: 0,
    recent: [],
  }),
  apply(s, ev: BlockEvent) {
    const b = ev.block;
    const recent = [
      ...s.recent,
      { index: b.index, timestamp: b.timestamp, txCount: b.transactions.length, proposer: b.proposer, rewards: ev.emitted.toString() },
    ];
    if (recent.length > RECENT_WINDOW) recent.splice(0, recent.length - RECENT_WINDOW);
    return {
      state: {
        height: b.index,
        latestBlockHash: b.hash,
        latestTimestamp: b.timestamp,
        totalTxs: s.totalTxs + b.transactions.length,
        recent,
      },
    };
  },
  save: (s) => s,
  load: (saved) => saved as ChainStats,
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
