/** /api/tokenomics: supply, holders, distribution. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { parseLimit, parseOffset } from '../params.ts';

/** Tokenomics routes. */
export function tokenomicsRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  app.get('/supply', (c) => {
    const s = queries.chain.supply();
    return c.json({
      totalEmitted: s.totalEmitted,
      circulating: s.circulating,
      blocksProduced: s.blocksProduced,
      rewardPerBlock: s.rewardPerBlock,
    });
  });
  app.get('/holders', (c) => c.json(queries.chain.holders(parseLimit(c.req.query('limit'), 100), parseOffset(c.req.query('offset')))));
  app.get('/distribution', (c) => c.json(queries.chain.distribution()));
  return app;
}
