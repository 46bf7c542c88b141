/** GET /api/mempool/: pending transactions, oldest first. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { parseLimit, parseOffset } from '../params.ts';

/** Mempool routes (also mounted at /api/chain/mempool). */
export function mempoolRoutes({ queries }: ApiDeps): Hono {
  return new Hono().get('/', (c) => {
    const limit = parseLimit(c.req.query('limit'), 100);
    const offset = parseOffset(c.req.query('offset'));
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
  });
}
