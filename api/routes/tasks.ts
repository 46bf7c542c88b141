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
import { taskIdOf } from '../../core/tx/task/task.ts';
import type { ApiDeps } from '../context.ts';
import { type Handler, serve } from '../endpoints/endpoint.ts';
import { TASK_ENDPOINTS as E } from '../endpoints/tasks.ts';
import { notFound } from '../errors.ts';
import { type SubmitPolicy, submitFrom } from '../submit.ts';

/** /api/chain/tasks, /api/chain/task/:id, /api/chain/fee-estimate. */
export function chainTaskRoutes({ queries }: ApiDeps): Hono {
  const { tasks } = queries;
  const app = new Hono();
  serve(app, E.getApiChainTasks, async (c, { query: { limit, offset, status } }) => c.json(await tasks.list(limit, offset, status)));
  serve(app, E.getApiChainTaskId, pipeline(queries));
  serve(app, E.getApiChainFeeEstimate, (c) => c.json(queries.stats.feeEstimate()));
  return app;
}

/** A task's pipeline record, or 404. */
const pipeline =
  ({ tasks }: ApiDeps['queries']): Handler<typeof E.getApiTasksId> =>
  async (c, { params: { id } }) =>
    c.json((await tasks.pipeline(id)) ?? notFound(`task ${id}`));

/** /api/tasks. */
export function taskRoutes(deps: ApiDeps, policy: SubmitPolicy): Hono {
  const { tasks } = deps.queries;
  const app = new Hono();

  serve(app, E.postApiTasksSubmit, async (c) => {
    const { tx } = await submitFrom(c, deps, policy, 'TASK_SUBMIT');
    return c.json({ ok: true, taskId: taskIdOf(tx), txHash: tx.hash, hash: tx.hash });
  });

  serve(app, E.getApiTasksActive, async (c, { query: { limit, offset } }) => c.json(await tasks.list(limit, offset, 'active')));

  serve(app, E.getApiTasksPending, (c, { query: { limit, offset } }) => {
    const { tasks: page, total } = tasks.pending(limit, offset);
    return c.json({ tasks: page, total });
  });

  serve(app, E.getApiTasksId, pipeline(deps.queries));

  return app;
}
