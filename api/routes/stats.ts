/** /api/stats: the older supply summary and transactions per second. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { serve } from '../endpoints/endpoint.ts';
import { LEDGER_ENDPOINTS as E } from '../endpoints/ledger.ts';

/** Stats routes: supply, and tps (see projections/tps.ts for the definitions). */
export function statsRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  serve(app, E.getApiStatsTps, (c) => c.json(queries.stats.tps()));
  // Blocks proposed and slots missed per authority over the last 1,000 blocks.
  serve(app, E.getApiStatsValidators, (c) => c.json(queries.stats.validators()));
  serve(app, E.getApiStatsSupply, (c) => {
    const s = queries.chain.supply();
    return c.json({
      totalSupply: s.circulating,
      totalEmitted: s.totalEmitted,
      totalBurned: s.totalBurned,
      escrow: s.escrow,
      circulating: s.circulating,
      feesPaid: s.feesPaid,
      blocksProduced: s.blocksProduced,
      rewardPerBlock: s.rewardPerBlock,
    });
  });
  return app;
}
