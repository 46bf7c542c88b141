/**
 * Analytics: hourly buckets (UTC hours of block timestamps, kept for 30 days behind the latest
 * block) and an all-time weekday x hour heatmap of transactions. Per bucket: blocks,
 * transactions, rewards (block rewards emitted + task rewards paid to miners and validators),
 * burned (the growth of the supply's burned total: task burn shares, BURN, burned fees),
 * miners (addresses that sent TASK_RESPONSE or AGENT_CLAIM), submitters (addresses that sent
 * TASK_SUBMIT or AGENT_REQUEST), TASK_SUBMIT counts by task type, fees paid, the intervals
 * between blocks (their sum and count: the block time) and the drive's storage used at the
 * hour's end (the sum of every account's `storageUsed`: drive files neither deleted nor expired).
 * All-time: transactions, task submissions, agent requests, and the storage used and fees paid so far.
 */
import { AGENT_CLAIM, AGENT_REQUEST } from '../core/tx/agent/agent.ts';
import { isTx } from '../core/tx/handler.ts';
import { TASK_RESPONSE, TASK_REWARD, TASK_SUBMIT } from '../core/tx/task/task.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

/** An hour in ms: buckets are numbered by timestamp / HOUR. */
export const HOUR = 3_600_000;
/** Hours of buckets kept: 30 days. */
const ANALYTICS_HOURS = 30 * 24;
/** The overview ranges and their length in hours. */
export const RANGES = { '24h': 24, '7d': 168, '30d': 720 } as const;
/** An overview range. */
export type Range = keyof typeof RANGES;

/** One hour of activity. */
interface Bucket {
  blocks: number;
  txCount: number;
  rewards: string;
  burned: string;
  miners: string[];
  submitters: string[];
  taskTypes: Record<string, number>;
  fees: string;
  /** Sum and count of the intervals between this hour's blocks and the blocks before them (ms). */
  blockTimeMs: number;
  intervals: number;
  /** Storage used at the end of the hour (bytes). */
  storageUsed: string;
}

/** Buckets by hour number (timestamp / 3,600,000), the heatmap, and where the chain is. */
export interface AnalyticsState {
  buckets: Record<string, Bucket>;
  heatmap: number[][];
  burned: string;
  latest: number;
  /** Supply's fees paid after the latest block. */
  feesPaid: string;
  /** The drive's storage used after the latest block (bytes). */
  storageUsed: string;
  /** All-time transactions, TASK_SUBMITs and AGENT_REQUESTs. */
  totalTxs: number;
  totalTasks: number;
  totalRuns: number;
}

/** What a block changes of the drive's storage used: files created (+) and deleted or expired (-) in it. */
function storageDelta(ev: BlockEvent): bigint {
  let delta = 0n;
  for (const u of ev.diff.records.webUploads.values()) {
    // A file created in this block carries the block's timestamp; a closed one left the storage now.
    if (u.createdAt === ev.block.timestamp) delta += BigInt(u.totalBytes);
    if (u.status === 'deleted' || u.status === 'expired') delta -= BigInt(u.totalBytes);
  }
  return delta;
}

const add = (list: string[], x: string): void => {
  if (!list.includes(x)) list.push(x);
};

/** Hourly figures and the heatmap. */
export const analyticsProjection: Projection<AnalyticsState, AnalyticsState> = {
  name: 'analytics',
  version: 2,
  init: (info: ChainInfo) => ({
    buckets: {},
    heatmap: Array.from({ length: 7 }, () => new Array(24).fill(0)),
    burned: info.genesisState.supply.burned.toString(),
    latest: info.genesisBlock.timestamp,
    feesPaid: info.genesisState.supply.feesPaid.toString(),
    storageUsed: '0',
    totalTxs: 0,
    totalTasks: 0,
    totalRuns: 0,
  }),
  apply(s, ev: BlockEvent) {
    const { block } = ev;
    const hour = Math.floor(block.timestamp / HOUR);
    if (!s.buckets[hour]) {
      s.buckets[hour] = {
        blocks: 0,
        txCount: 0,
        rewards: '0',
        burned: '0',
        miners: [],
        submitters: [],
        taskTypes: {},
        fees: '0',
        blockTimeMs: 0,
        intervals: 0,
        storageUsed: s.storageUsed,
      };
      // Hours only grow along a chain: old buckets can fall out only when a new hour starts.
      for (const k of Object.keys(s.buckets)) if (Number(k) <= hour - ANALYTICS_HOURS) delete s.buckets[k];
    }
    const b = s.buckets[hour];
    let rewards = ev.emitted;
    for (const tx of ev.txs) {
      if (isTx(tx, TASK_SUBMIT)) {
        add(b.submitters, tx.from);
        b.taskTypes[tx.taskType] = (b.taskTypes[tx.taskType] ?? 0) + 1;
        s.totalTasks += 1;
      } else if (isTx(tx, AGENT_REQUEST)) {
        add(b.submitters, tx.from);
        s.totalRuns += 1;
      } else if (isTx(tx, TASK_RESPONSE) || isTx(tx, AGENT_CLAIM)) add(b.miners, tx.from);
      else if (isTx(tx, TASK_REWARD)) {
        for (const r of tx.rewards) if (r.reason !== 'burn') rewards += BigInt(r.amount);
      }
    }
    const { burned, feesPaid } = ev.diff.supply;
    // Block 1 follows the genesis, whose timestamp is when the chain was configured, not a block time.
    if (block.index > 1) {
      b.blockTimeMs += block.timestamp - s.latest;
      b.intervals += 1;
    }
    // The totals are decimal strings: most blocks move only the rewards, so the rest are parsed
    // and printed again only when they moved (a quiet chain's blocks are mostly this fold).
    const fees = feesPaid.toString();
    if (fees !== s.feesPaid) {
      b.fees = (BigInt(b.fees) + feesPaid - BigInt(s.feesPaid)).toString();
      s.feesPaid = fees;
    }
    const stored = storageDelta(ev);
    if (stored !== 0n) s.storageUsed = (BigInt(s.storageUsed) + stored).toString();
    b.storageUsed = s.storageUsed;
    s.totalTxs += block.transactions.length;
    b.blocks += 1;
    b.txCount += block.transactions.length;
    if (rewards !== 0n) b.rewards = (BigInt(b.rewards) + rewards).toString();
    const burnedNow = burned.toString();
    if (burnedNow !== s.burned) {
      b.burned = (BigInt(b.burned) + burned - BigInt(s.burned)).toString();
      s.burned = burnedNow;
    }
    s.latest = block.timestamp;
    const d = new Date(block.timestamp);
    s.heatmap[(d.getUTCDay() + 6) % 7][d.getUTCHours()] += block.transactions.length;
    return { state: s };
  },
  save: (s) => s,
  load: (saved) => saved,
};

/** The overview record of a range: the hour buckets ending with the latest block's hour. */
export function overview(s: AnalyticsState, range: Range) {
  const last = Math.floor(s.latest / HOUR);
  let blocks = 0;
  let txCount = 0;
  let rewards = 0n;
  let burned = 0n;
  let fees = 0n;
  let blockTimeMs = 0;
  let intervals = 0;
  const miners = new Set<string>();
  const submitters = new Set<string>();
  const types = new Map<string, number>();
  for (const [k, b] of Object.entries(s.buckets)) {
    if (Number(k) <= last - RANGES[range]) continue;
    blocks += b.blocks;
    txCount += b.txCount;
    rewards += BigInt(b.rewards);
    burned += BigInt(b.burned);
    fees += BigInt(b.fees);
    blockTimeMs += b.blockTimeMs;
    intervals += b.intervals;
    for (const m of b.miners) miners.add(m);
    for (const x of b.submitters) submitters.add(x);
    for (const [t, n] of Object.entries(b.taskTypes)) types.set(t, (types.get(t) ?? 0) + n);
  }
  const topTaskTypes = [...types].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : 1));
  return {
    range,
    blocks,
    txCount,
    totalRewards: rewards.toString(),
    totalBurned: burned.toString(),
    totalFees: fees.toString(),
    avgBlockTimeMs: intervals ? Math.round(blockTimeMs / intervals) : null,
    uniqueMiners: miners.size,
    uniqueSubmitters: submitters.size,
    topTaskTypes,
  };
}
