/**
 * /api/miners: registered miners with their read-model figures. Lists are ordered by
 * registration height, then id; `limit` defaults to 30 (at most 100) with `offset` and `total`.
 */
import { Hono } from 'hono';
import type { Miner } from '../../core/state.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { parseAddress, parseHash, parseLimit, parseOffset } from '../params.ts';
import type { ChainQueries } from '../../queries/chainQueries.ts';

/** The spec's Miner record. */
export function minerRecord(queries: ChainQueries, m: Miner) {
  const r = queries.miner(m.id)!;
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

  app.get('/', (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const offset = parseOffset(c.req.query('offset'));
    const all = [...queries.chain.state().records.miners.values()].sort(
      (a, b) => a.registeredAt - b.registeredAt || (a.id < b.id ? -1 : 1),
    );
    return c.json({ miners: all.slice(offset, offset + limit).map((m) => minerRecord(queries.chain, m)), total: all.length });
  });

  app.get('/by-address/:address', (c) => {
    const address = parseAddress(c.req.param('address'));
    const id = queries.chain.account(address).minerId;
    const m = id ? queries.chain.state().records.miners.get(id) : undefined;
    return c.json(m ? minerRecord(queries.chain, m) : null);
  });

  app.get('/:id', (c) => {
    const id = parseHash(c.req.param('id'), 'miner id');
    const m = queries.chain.state().records.miners.get(id);
    return m ? c.json(minerRecord(queries.chain, m)) : notFound(`miner ${id}`);
  });

  return app;
}
