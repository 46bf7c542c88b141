/** The definitions of the task and miner routes. */
import { TASK_STATUSES } from '../../../core/tx/task/task.ts';
import { endpoints } from '../../endpoints/endpoint.ts';
import { EXAMPLE_IDS, EXAMPLE_TASK_SUBMIT } from '../../endpoints/examples.ts';
import { addressParam, hashParam, matching, oneOfParam, paging } from '../../endpoints/params.ts';
import { address, arr, big, hash, ms, nullable, obj, str, uint } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';

/** A task id, as TASK_SUBMIT allows. */
const taskId = matching(/^[A-Za-z0-9_-]{8,64}$/, 'task id', 'task id must match [A-Za-z0-9_-]{8,64}', '327d1c214ca75bd4bd5f15ceeed2b63e');

/** Tasks and miners. */
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
});
