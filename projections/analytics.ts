/**
 * Analytics: hourly buckets (UTC hours of block timestamps, kept for 30 days behind the latest
 * block) and an all-time weekday x hour heatmap of transactions. Per bucket: blocks,
 * transactions, rewards (block rewards emitted + task rewards paid to miners and validators),
 * burned (the growth of the supply's burned total: task burn shares, BURN, burned fees),
 * miners (addresses that sent TASK_RESPONSE or AGENT_CLAIM), submitters (addresses that sent
 * TASK_SUBMIT or AGENT_REQUEST) and TASK_SUBMIT counts by task type.
 */
import { AGENT_CLAIM, AGENT_REQUEST } from '../core/tx/agent/agent.ts';
import { isTx } from '../core/tx/handler.ts';
import { TASK_RESPONSE, TASK_REWARD, TASK_SUBMIT } from '../core/tx/task/task.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

const HOUR = 3_600_000;
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
}

/** Buckets by hour number (timestamp / 3,600,000), the heatmap, and where the chain is. */
export interface AnalyticsState {
  buckets: Record<string, Bucket>;
  heatmap: number[][];
  burned: string;
  latest: number;
}

const add = (list: string[], x: string): void => {
  if (!list.includes(x)) list.push(x);
};

/** Hourly figures and the heatmap. */
export const analyticsProjection: Projection<AnalyticsState, AnalyticsState> = {
  name: 'analytics',
  version: 1,
  init: (info: ChainInfo) => ({
    buckets: {},
    heatmap: Array.from({ length: 7 }, () => new Array(24).fill(0)),
    burned: info.genesisState.supply.burned.toString(),
    latest: info.genesisBlock.timestamp,
  }),
  apply(s, ev: BlockEvent) {
    const { block } = ev;
    const hour = Math.floor(block.timestamp / HOUR);
    if (!s.buckets[hour]) {
      s.buckets[hour] = { blocks: 0, txCount: 0, rewards: '0', burned: '0', miners: [], submitters: [], taskTypes: {} };
      // Hours only grow along a chain: old buckets can fall out only when a new hour starts.
      for (const k of Object.keys(s.buckets)) if (Number(k) <= hour - ANALYTICS_HOURS) delete s.buckets[k];
    }
    const b = s.buckets[hour];
    let rewards = ev.emitted;
    for (const tx of ev.txs) {
      if (isTx(tx, TASK_SUBMIT)) {
        add(b.submitters, tx.from);
        b.taskTypes[tx.taskType] = (b.taskTypes[tx.taskType] ?? 0) + 1;
      } else if (isTx(tx, AGENT_REQUEST)) add(b.submitters, tx.from);
      else if (isTx(tx, TASK_RESPONSE) || isTx(tx, AGENT_CLAIM)) add(b.miners, tx.from);
      else if (isTx(tx, TASK_REWARD)) {
        for (const r of tx.rewards) if (r.reason !== 'burn') rewards += BigInt(r.amount);
      }
    }
    const burned = ev.diff.supply.burned;
    b.blocks += 1;
    b.txCount += block.transactions.length;
    b.rewards = (BigInt(b.rewards) + rewards).toString();
    b.burned = (BigInt(b.burned) + burned - BigInt(s.burned)).toString();
    s.burned = burned.toString();
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
  const miners = new Set<string>();
  const submitters = new Set<string>();
  const types = new Map<string, number>();
  for (const [k, b] of Object.entries(s.buckets)) {
    if (Number(k) <= last - RANGES[range]) continue;
    blocks += b.blocks;
    txCount += b.txCount;
    rewards += BigInt(b.rewards);
    burned += BigInt(b.burned);
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
    uniqueMiners: miners.size,
    uniqueSubmitters: submitters.size,
    topTaskTypes,
  };
}
