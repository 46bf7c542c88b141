/** /api/stats: the older supply summary. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';

/** Stats routes. */
export function statsRoutes({ queries }: ApiDeps): Hono {
  return new Hono().get('/supply', (c) => {
    const s = queries.supply();
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
}
