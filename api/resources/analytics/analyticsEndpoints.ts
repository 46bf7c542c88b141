/** The definitions of the analytics routes: what explorer charts and headline figures read. */
import { ChainError } from '../../../core/errors.ts';
import { RANGES, type Range } from '../../../projections/analytics.ts';
import type { SeriesStep } from '../../../queries/analyticsSeries.ts';
import { type Checked, endpoints } from '../../endpoints/endpoint.ts';
import { oneOfParam } from '../../endpoints/params.ts';
import { arr, big, ms, nullable, num, obj, oneOf, record, str, uint } from '../../../queries/schemas/shapes.ts';

/** A range of whole UTC hours. */
const range: Checked<Range> = {
  schema: oneOf(...Object.keys(RANGES)),
  description: 'whole UTC hours ending with the latest block (default 24h)',
  parse: (s = '24h') => {
    if (!Object.hasOwn(RANGES, s)) throw new ChainError('INVALID_PARAMS', `range must be one of ${Object.keys(RANGES).join(', ')}`);
    return s as Range;
  },
  example: '24h',
};

/** The step of a series. */
const step: Checked<SeriesStep> = oneOfParam('step', ['hour', 'day'], 'one point per UTC hour or per UTC day (default hour)', 'hour');

/** One point of a chart series. */
const seriesPoint = obj({
  start: ms,
  blocks: uint,
  txCount: uint,
  tps: num,
  blockTimeMs: nullable(uint),
  activeMiners: uint,
  submitters: uint,
  tasks: uint,
  taskTypes: { ...record(uint), description: 'TASK_SUBMITs by task type' },
  fees: big,
  rewards: big,
  burned: big,
  storageUsed: { ...big, description: "the drive's storage used at the end of the step (bytes)" },
});

/** Analytics. */
export const ANALYTICS_ENDPOINTS = endpoints({
  getApiAnalyticsOverview: {
    method: 'GET',
    path: '/api/analytics/overview',
    tag: 'analytics',
    summary: 'Blocks, transactions, rewards, burns, miners, submitters and task types over a range',
    query: { range },
    ok: {
      schema: obj({
        range: oneOf('24h', '7d', '30d'),
        blocks: uint,
        txCount: uint,
        totalRewards: str,
        totalBurned: str,
        totalFees: big,
        avgBlockTimeMs: nullable(uint),
        uniqueMiners: uint,
        uniqueSubmitters: uint,
        topTaskTypes: arr(obj({ type: str, count: uint })),
      }),
    },
  },
  getApiAnalyticsHeatmap: {
    method: 'GET',
    path: '/api/analytics/heatmap',
    tag: 'analytics',
    summary: 'Transactions by weekday (Monday first) and UTC hour',
    ok: {
      schema: obj({
        matrix: { type: 'array', minItems: 7, maxItems: 7, items: { type: 'array', minItems: 24, maxItems: 24, items: uint } },
      }),
    },
  },
  getApiAnalyticsSeries: {
    method: 'GET',
    path: '/api/analytics/series',
    tag: 'analytics',
    summary:
      'Chart series: blocks, transactions, TPS, block time, active miners, tasks by type, fees, rewards, burns and storage used per UTC hour or day',
    description:
      'One point per step of the range, oldest first, gaps filled (steps without blocks are zeros; `storageUsed` carries over). Hour steps over 30 days are 720 points at most; read from the analytics projection, nothing is scanned.',
    query: { range, step },
    ok: { schema: obj({ range: oneOf(...Object.keys(RANGES)), step: oneOf('hour', 'day'), points: arr(seriesPoint) }) },
  },
  getApiAnalyticsTotals: {
    method: 'GET',
    path: '/api/analytics/totals',
    tag: 'analytics',
    summary:
      "An explorer's headline figures: height, all-time transactions, tasks and agent runs, miners, the last 24 hours, TPS, supply, fees, storage used",
    ok: {
      schema: obj({
        height: uint,
        transactions: uint,
        tasks: uint,
        agentRuns: uint,
        miners: uint,
        activeMiners24h: uint,
        transactions24h: uint,
        blocks24h: uint,
        tps: obj({ average: num, peak: num }),
        blockTimeMs24h: nullable(uint),
        circulatingSupply: big,
        totalBurned: big,
        feesPaid: big,
        storageUsed: big,
      }),
    },
  },
});
