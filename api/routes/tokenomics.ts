/** /api/tokenomics: supply, holders, distribution. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { serve } from '../endpoints/endpoint.ts';
import { LEDGER_ENDPOINTS as E } from '../endpoints/ledger.ts';

/** Tokenomics routes. */
export function tokenomicsRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  serve(app, E.getApiTokenomicsSupply, (c) => {
    const s = queries.chain.supply();
    return c.json({
      totalEmitted: s.totalEmitted,
      circulating: s.circulating,
      blocksProduced: s.blocksProduced,
      rewardPerBlock: s.rewardPerBlock,
    });
  });
  serve(app, E.getApiTokenomicsHolders, async (c, { query: { limit, offset } }) => c.json(await queries.chain.holders(limit, offset)));
  serve(app, E.getApiTokenomicsDistribution, (c) => c.json(queries.chain.distribution()));
  return app;
}
