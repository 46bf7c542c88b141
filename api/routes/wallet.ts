/** GET /api/wallet/balance/:address: balance with mined storage capacity. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { parseAddress } from '../params.ts';

/** Wallet routes. */
export function walletRoutes({ queries }: ApiDeps): Hono {
  return new Hono().get('/balance/:address', (c) => c.json(queries.chain.walletRecord(parseAddress(c.req.param('address')))));
}
