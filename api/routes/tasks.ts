/**
 * Tasks. Under /api/chain: `tasks` (summaries newest first; limit default 30, at most 100;
 * offset; optional `status`), `task/:id` (the full pipeline record) and `fee-estimate`. Under
 * /api/tasks: `active` (status submitted or responses_collected: the tasks miners may still
 * answer; validated ones are listed by /api/chain/tasks?status=validated), `pending`
 * (TASK_SUBMITs in the mempool, arrival order; limit default 30, at most 100; offset; `total`
 * counts them all), `submit` (a signed TASK_SUBMIT through the same validation as
 * POST /api/chain/tx; answers `{ok, taskId, txHash, hash}`) and `:id`.
 */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import type { TaskStatus } from '../../core/state.ts';
import { taskIdOf } from '../../core/tx/task/task.ts';
import { TASK_STATUSES } from '../../projections/tasks.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { parseLimit, parseOffset } from '../params.ts';
import { submitFrom } from '../submit.ts';

/** A task id: [A-Za-z0-9_-]{8,64}, as TASK_SUBMIT allows. */
function parseTaskId(s: string | undefined): string {
  if (s === undefined || !/^[A-Za-z0-9_-]{8,64}$/.test(s)) throw new ChainError('INVALID_PARAMS', 'task id must match [A-Za-z0-9_-]{8,64}');
  return s;
}

function parseStatus(s: string | undefined): TaskStatus | 'all' {
  if (s === undefined || s === '') return 'all';
  if (!(TASK_STATUSES as readonly string[]).includes(s))
    throw new ChainError('INVALID_PARAMS', `status must be one of ${TASK_STATUSES.join(', ')}`);
  return s as TaskStatus;
}

/** /api/chain/tasks, /api/chain/task/:id, /api/chain/fee-estimate. */
export function chainTaskRoutes({ queries }: ApiDeps): Hono {
  const { tasks } = queries;
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
  app.get('/fee-estimate', (c) => c.json(queries.stats.feeEstimate()));
  return app;
}

/** /api/tasks. */
export function taskRoutes(deps: ApiDeps): Hono {
  const { tasks } = deps.queries;
  const app = new Hono();

  app.post('/submit', async (c) => {
    const { tx } = await submitFrom(c, deps, 'TASK_SUBMIT');
    return c.json({ ok: true, taskId: taskIdOf(tx), txHash: tx.hash, hash: tx.hash });
  });

  app.get('/active', async (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const offset = parseOffset(c.req.query('offset'));
    return c.json(await tasks.list(limit, offset, 'active'));
  });

  app.get('/pending', (c) => {
    const { tasks: page, total } = tasks.pending(parseLimit(c.req.query('limit')), parseOffset(c.req.query('offset')));
    return c.json({ tasks: page, total });
  });

  app.get('/:id', async (c) => {
    const id = parseTaskId(c.req.param('id'));
    return c.json((await tasks.pipeline(id)) ?? notFound(`task ${id}`));
  });

  return app;
}
