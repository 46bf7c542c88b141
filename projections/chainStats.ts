/** Chain statistics over the tip and a window of recent blocks. */
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

/** Blocks the "recent" figures look back over. */
export const RECENT_WINDOW = 100;

/** One recent block's figures. */
interface RecentBlock {
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

/** A block's undo: the tip figures before it, and the recent block it pushed out (or null). */
type ChainStatsUndo = [number, string, number, number, RecentBlock | null];

/** Height, tip, totals and the recent-block window (a block's undo is the tip and one entry, not the window). */
export const chainStatsProjection: Projection<ChainStats, ChainStats, ChainStatsUndo> = {
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
    const undo: ChainStatsUndo = [s.height, s.latestBlockHash, s.latestTimestamp, s.totalTxs, null];
    s.recent.push({
      index: b.index,
      timestamp: b.timestamp,
      txCount: b.transactions.length,
      proposer: b.proposer,
      rewards: ev.emitted.toString(),
    });
    if (s.recent.length > RECENT_WINDOW) undo[4] = s.recent.shift() ?? null;
    s.height = b.index;
    s.latestBlockHash = b.hash;
    s.latestTimestamp = b.timestamp;
    s.totalTxs += b.transactions.length;
    return { state: s, undo };
  },
  save: (s) => s,
  load: (saved) => saved,
  revert(s, undo) {
    const [height, hash, timestamp, totalTxs, evicted] = undo;
    s.recent.pop();
    if (evicted) s.recent.unshift(evicted);
    Object.assign(s, { height, latestBlockHash: hash, latestTimestamp: timestamp, totalTxs });
    return s;
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
