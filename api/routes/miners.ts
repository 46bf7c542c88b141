/**
 * /api/miners: registered miners with their read-model figures. Lists are ordered by
 * registration height, then id; `limit` defaults to 30 (at most 100) with `offset` and `total`.
 */
import { Hono } from 'hono';
import type { Miner } from '../../core/state.ts';
import { MINERS } from '../../core/tx/miner.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { serve } from '../endpoints/endpoint.ts';
import { TASK_ENDPOINTS as E } from '../endpoints/tasks.ts';
import type { ChainQueries } from '../../queries/chainQueries.ts';

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

/** Miner routes. */
export function minerRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();

  serve(app, E.getApiMiners, async (c, { query: { limit, offset } }) => {
    const { total, ids } = await queries.chain.listPage('miners', limit, offset);
    const miners = (await queries.chain.records(MINERS, ids)).filter((m) => m !== undefined);
    return c.json({ miners: miners.map((m) => minerRecord(queries.chain, m)), total });
  });

  serve(app, E.getApiMinersByAddressAddress, async (c, { params: { address } }) => {
    const id = (await queries.chain.account(address)).minerId;
    const m = id ? await queries.chain.record(MINERS, id) : undefined;
    return c.json(m ? minerRecord(queries.chain, m) : null);
  });

  serve(app, E.getApiMinersId, async (c, { params: { id } }) => {
    const m = await queries.chain.record(MINERS, id);
    return m ? c.json(minerRecord(queries.chain, m)) : notFound(`miner ${id}`);
  });

  return app;
}
