/** GET /api/mempool/: pending transactions, oldest first. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { BLOCK_ENDPOINTS as E } from '../endpoints/blocks.ts';
import { type Handler, serve } from '../endpoints/endpoint.ts';

/** Mempool routes: /api/mempool and /api/chain/mempool. */
export function mempoolRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  const page: Handler<typeof E.getApiMempool> = (c, { query: { limit, offset } }) => {
    const all = queries.chain.pendingTxs();
    const pending = all.slice(offset, offset + limit).map((t) => ({
      type: t.type,
      from: t.from,
      ...(typeof t.to === 'string' ? { to: t.to } : {}),
      ...(typeof t.amount === 'string' ? { amount: t.amount } : {}),
      ...(typeof t.fee === 'string' ? { fee: t.fee } : {}),
      nonce: t.nonce,
      hash: t.hash,
    }));
    return c.json({ total: all.length, pending });
  };
  serve(app, E.getApiChainMempool, page);
  serve(app, E.getApiMempool, page);
  return app;
}
