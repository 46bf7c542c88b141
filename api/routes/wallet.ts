/** GET /api/wallet/balance/:address: balance with mined storage capacity. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { serve } from '../endpoints/endpoint.ts';
import { LEDGER_ENDPOINTS as E } from '../endpoints/ledger.ts';

/** Wallet routes. */
export function walletRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  serve(app, E.getApiWalletBalanceAddress, async (c, { params }) => c.json(await queries.chain.walletRecord(params.address)));
  return app;
}
