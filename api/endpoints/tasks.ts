/** The definitions of the task, miner and analytics routes. */
import { ChainError } from '../../core/errors.ts';
import { TASK_STATUSES } from '../../core/tx/task/task.ts';
import { RANGES, type Range } from '../../projections/analytics.ts';
import { type Checked, endpoints } from './endpoint.ts';
import { EXAMPLE_IDS, EXAMPLE_TASK_SUBMIT } from './examples.ts';
import { addressParam, hashParam, matching, oneOfParam, paging } from './params.ts';
import { address, arr, big, hash, ms, nullable, obj, oneOf, ref, str, uint } from '../openapi/shapes.ts';

/** A task id, as TASK_SUBMIT allows. */
const taskId = matching(/^[A-Za-z0-9_-]{8,64}$/, 'task id', 'task id must match [A-Za-z0-9_-]{8,64}', '327d1c214ca75bd4bd5f15ceeed2b63e');
const range: Checked<Range> = {
  schema: oneOf(...Object.keys(RANGES)),
  description: 'whole UTC hours ending with the latest block (default 24h)',
  parse: (s = '24h') => {
    if (!Object.hasOwn(RANGES, s)) throw new ChainError('INVALID_PARAMS', `range must be one of ${Object.keys(RANGES).join(', ')}`);
    return s as Range;
  },
  example: '24h',
};

/** Tasks, miners and analytics. */
export const TASK_ENDPOINTS = endpoints({
  getApiChainTasks: {
    method: 'GET',
    path: '/api/chain/tasks',
    tag: 'tasks',
    summary: 'Task summaries, newest first',
    query: { ...paging(100), status: oneOfParam('status', TASK_STATUSES, 'only tasks in this status', 'all') },
    ok: { schema: ref('TaskList') },
  },
  getApiChainTaskId: {
    method: 'GET',
    path: '/api/chain/task/:id',
    tag: 'tasks',
    summary: "A task's pipeline record",
    params: { id: taskId },
    ok: { schema: ref('TaskPipeline') },
    errors: [404],
  },
  getApiChainFeeEstimate: {
    method: 'GET',
    path: '/api/chain/fee-estimate',
    tag: 'tasks',
    summary: 'TASK_SUBMIT fee percentiles (25th, 50th, 90th) of the last 100',
    ok: { schema: obj({ low: big, medium: big, high: big, sample: uint }) },
  },
  postApiTasksSubmit: {
    method: 'POST',
    path: '/api/tasks/submit',
    tag: 'tasks',
    summary: 'Submit a signed TASK_SUBMIT',
    description:
      "`taskId` is the transaction's `taskId`, else the first 32 hex of its hash; refused as POST /api/chain/tx refuses, and a transaction of another type is 400.",
    body: {
      schema: ref('Tx_TASK_SUBMIT'),
      description: 'a signed TASK_SUBMIT (or the `{tx, signature}` form)',
      example: EXAMPLE_TASK_SUBMIT,
    },
    ok: { schema: obj({ ok: { const: true }, taskId: str, txHash: hash, hash }) },
    errors: [403, 409, 413, 422, 503],
  },
  getApiTasksActive: {
    method: 'GET',
    path: '/api/tasks/active',
    tag: 'tasks',
    summary: 'Tasks miners may still answer (submitted, responses_collected)',
    query: paging(100),
    ok: { schema: ref('TaskList') },
  },
  getApiTasksPending: {
    method: 'GET',
    path: '/api/tasks/pending',
    tag: 'tasks',
    summary: 'TASK_SUBMITs waiting in the mempool, in arrival order (total: all of them)',
    query: paging(100),
    ok: {
      schema: obj({
        tasks: arr(
          obj({
            taskId: str,
            txHash: hash,
            submitter: address,
            taskType: str,
            prompt: str,
            fee: str,
            timeoutMs: uint,
            nonce: uint,
            timestamp: ms,
          }),
        ),
        total: uint,
      }),
    },
  },
  getApiTasksId: {
    method: 'GET',
    path: '/api/tasks/:id',
    tag: 'tasks',
    summary: "A task's pipeline record",
    params: { id: taskId },
    ok: { schema: ref('TaskPipeline') },
    errors: [404],
  },
  getApiMiners: {
    method: 'GET',
    path: '/api/miners',
    tag: 'miners',
    summary: 'Registered miners',
    query: paging(100),
    ok: { schema: obj({ miners: arr(ref('Miner')), total: uint }) },
  },
  getApiMinersByAddressAddress: {
    method: 'GET',
    path: '/api/miners/by-address/:address',
    tag: 'miners',
    summary: "An address's miner (null for a non-miner)",
    params: { address: addressParam() },
    ok: { schema: nullable(ref('Miner')) },
  },
  getApiMinersId: {
    method: 'GET',
    path: '/api/miners/:id',
    tag: 'miners',
    summary: 'A miner',
    params: { id: hashParam('miner id', 'miner id', EXAMPLE_IDS.miner) },
    ok: { schema: ref('Miner') },
    errors: [404],
  },
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
});
