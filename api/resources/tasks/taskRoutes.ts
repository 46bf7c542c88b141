/**
 * The tasks resource's router: every definition of ./taskEndpoints.ts served by its handler.
 * Under /api/chain: `tasks` (summaries newest first; limit default 30, at most 100; offset;
 * optional `status`), `task/:id` (the full pipeline record) and `fee-estimate`. Under
 * /api/tasks: `active` (status submitted or responses_collected: the tasks miners may still
 * answer; validated ones are listed by /api/chain/tasks?status=validated), `pending`
 * (TASK_SUBMITs in the mempool, arrival order; limit default 30, at most 100; offset; `total`
 * counts them all), `submit` (a signed TASK_SUBMIT through the same validation as
 * POST /api/chain/tx; answers `{ok, taskId, txHash, hash}`) and `:id`. /api/miners: registered
 * miners with their read-model figures, ordered by registration height, then id; `limit`
 * defaults to 30 (at most 100) with `offset` and `total`.
 */
import type { Hono } from 'hono';
import type { Miner } from '../../../core/state.ts';
import { MINERS } from '../../../core/tx/miner.ts';
import { taskIdOf } from '../../../core/tx/task/task.ts';
import type { ChainQueries } from '../../../queries/chainQueries.ts';
import type { ApiDeps } from '../../context.ts';
import { type Handler, resource } from '../../endpoints/endpoint.ts';
import { notFound } from '../../errors.ts';
import { type SubmitPolicy, submitFrom } from '../../submit.ts';
import { TASK_ENDPOINTS as E } from './taskEndpoints.ts';

/** The spec's Miner record. */
function minerRecord(queries: ChainQueries, m: Miner) {
  const r = queries.minerFigures(m);
  return {
    id: r.id,
    name: r.name,
    address: r.address,
    reputationScore: r.reputationScore,
    capabilities: r.capabilities,
    tasksCompleted: r.tasksCompleted,
  };
}

/** The tasks resource: tasks, their submission, and the miners who answer them. */
export function taskRoutes(deps: ApiDeps, policy: SubmitPolicy): Hono {
  const { queries } = deps;
  const { tasks } = queries;
  // A task's pipeline record, or 404.
  const pipeline: Handler<typeof E.getApiTasksId> = async (c, { params: { id } }) =>
    c.json((await tasks.pipeline(id)) ?? notFound(`task ${id}`));

  return resource(E, {
    getApiChainTasks: async (c, { query: { limit, offset, status } }) => c.json(await tasks.list(limit, offset, status)),
    getApiChainTaskId: pipeline,
    getApiChainFeeEstimate: (c) => c.json(queries.stats.feeEstimate()),

    postApiTasksSubmit: async (c) => {
      const { tx } = await submitFrom(c, deps, policy, 'TASK_SUBMIT');
      return c.json({ ok: true as const, taskId: taskIdOf(tx), txHash: tx.hash, hash: tx.hash });
    },
    getApiTasksActive: async (c, { query: { limit, offset } }) => c.json(await tasks.list(limit, offset, 'active')),
    getApiTasksPending: (c, { query: { limit, offset } }) => {
      const { tasks: page, total } = tasks.pending(limit, offset);
      return c.json({ tasks: page, total });
    },
    getApiTasksId: pipeline,

    getApiMiners: async (c, { query: { limit, offset } }) => {
      const { total, ids } = await queries.chain.listPage('miners', limit, offset);
      const miners = (await queries.chain.records(MINERS, ids)).filter((m) => m !== undefined);
      return c.json({ miners: miners.map((m) => minerRecord(queries.chain, m)), total });
    },
    getApiMinersByAddressAddress: async (c, { params: { address } }) => {
      const id = (await queries.chain.account(address)).minerId;
      const m = id ? await queries.chain.record(MINERS, id) : undefined;
      return c.json(m ? minerRecord(queries.chain, m) : null);
    },
    getApiMinersId: async (c, { params: { id } }) => {
      const m = await queries.chain.record(MINERS, id);
      return m ? c.json(minerRecord(queries.chain, m)) : notFound(`miner ${id}`);
    },
  });
}
