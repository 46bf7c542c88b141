/** /api/stats: the older supply summary and transactions per second. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';

/** Stats routes: supply, and tps (see projections/tps.ts for the definitions). */
export function statsRoutes({ queries }: ApiDeps): Hono {
  return (
    new Hono()
      .get('/tps', (c) => c.json(queries.stats.tps()))
      // Blocks proposed and slots missed per authority over the last 1,000 blocks.
      .get('/validators', (c) => c.json(queries.stats.validators()))
      .get('/supply', (c) => {
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
      })
  );
}
