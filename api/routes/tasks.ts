/**
 * Tasks. Under /api/chain: `tasks` (summaries newest first; limit default 30, at most 100;
 * offset; optional `status`), `task/:id` (the full pipeline record) and `fee-estimate`. Under
 * /api/tasks: `active` (status submitted or responses_collected: the tasks miners may still
 * answer; validated ones are listed by /api/chain/tasks?status=validated), `pending`
 * (TASK_SUBMITs in the mempool), `submit` (a signed TASK_SUBMIT through the same validation as
 * POST /api/chain/tx; answers `{ok, taskId, txHash, hash}`) and `:id`.
 */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import type { TaskStatus } from '../../core/state.ts';
import { taskIdOf } from '../../core/tx/task.ts';
import { TaskQueries } from '../../queries/taskQueries.ts';
import { feeEstimate, type FeeEstimateState } from '../../projections/feeEstimate.ts';
import { TASK_STATUSES } from '../../projections/tasks.ts';
import { readJson } from '../body.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { parseLimit, parseOffset } from '../params.ts';
import { normaliseSubmission } from './transactions.ts';

/** The in-flight statuses /api/tasks/active lists (the spec's set). */
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['submitted', 'responses_collected'];

/** A task id: [A-Za-z0-9_-]{8,64}, as TASK_SUBMIT allows. */
export function parseTaskId(s: string | undefined): string {
  if (s === undefined || !/^[A-Za-z0-9_-]{8,64}$/.test(s)) throw new ChainError('INVALID_PARAMS', 'task id must match [A-Za-z0-9_-]{8,64}');
  return s;
}

function parseStatus(s: string | undefined): TaskStatus[] | undefined {
  if (s === undefined || s === '') return undefined;
  if (!(TASK_STATUSES as readonly string[]).includes(s))
    throw new ChainError('INVALID_PARAMS', `status must be one of ${TASK_STATUSES.join(', ')}`);
  return [s as TaskStatus];
}

/** /api/chain/tasks, /api/chain/task/:id, /api/chain/fee-estimate. */
export function chainTaskRoutes({ node }: ApiDeps): Hono {
  const tasks = new TaskQueries(node);
  const app = new Hono();
  app.get('/tasks', async (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const offset = parseOffset(c.req.query('offset'));
    return c.json(await tasks.list(limit, offset, parseStatus(c.req.query('status'))));
  });
  app.get('/task/:id', async (c) => {
    const id = parseTaskId(c.req.param('id'));
    return c.json((await tasks.pipeline(id)) ?? notFound(`task ${id}`));
  });
  app.get('/fee-estimate', (c) => c.json(feeEstimate(node.runner.state<FeeEstimateState>('feeEstimate'))));
  return app;
}

/** /api/tasks. */
export function taskRoutes({ node, network }: ApiDeps): Hono {
  const tasks = new TaskQueries(node);
  const app = new Hono();

  app.post('/submit', async (c) => {
    const body = await readJson(c);
    if (network.syncing()) throw new ChainError('SYNCING', 'node is syncing; try again shortly');
    const { raw } = normaliseSubmission(body);
    if ((raw as { type?: unknown }).type !== 'TASK_SUBMIT')
      throw new ChainError('INVALID_PARAMS', 'body must be a signed TASK_SUBMIT transaction');
    const tx = await node.submitTx(raw);
    return c.json({ ok: true, taskId: taskIdOf(tx), txHash: tx.hash, hash: tx.hash });
  });

  app.get('/active', async (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const offset = parseOffset(c.req.query('offset'));
    return c.json(await tasks.list(limit, offset, ACTIVE_STATUSES));
  });

  app.get('/pending', (c) => {
    const pending = tasks.pending();
    return c.json({ tasks: pending, total: pending.length });
  });

  app.get('/:id', async (c) => {
    const id = parseTaskId(c.req.param('id'));
    return c.json((await tasks.pipeline(id)) ?? notFound(`task ${id}`));
  });

  return app;
}
