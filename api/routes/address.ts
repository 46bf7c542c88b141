/** The older address routes: /api/address/:addr, /balance, /txs. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { parseAddress, parseLimit, parseOffset } from '../params.ts';

/** Address routes. */
export function addressRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  app.get('/:addr', (c) => {
    const address = parseAddress(c.req.param('addr'));
    const a = queries.chain.account(address);
    return c.json({ address, balance: a.balance.toString(), nonce: a.nonce });
  });
  app.get('/:addr/balance', (c) => {
    const address = parseAddress(c.req.param('addr'));
    return c.json({ address, balance: queries.chain.account(address).balance.toString() });
  });
  app.get('/:addr/txs', async (c) => {
    const address = parseAddress(c.req.param('addr'));
    const txs = await queries.chain.addressTxs(address, parseLimit(c.req.query('limit'), 100), parseOffset(c.req.query('offset')));
    return c.json({ address, count: txs.length, txs });
  });
  return app;
}
