/** The older address routes: /api/address/:addr, /balance, /txs. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { ChainError } from '../../core/errors.ts';
import { parseAddress, parseCursor, parseLimit, parseOffset } from '../params.ts';

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
    const offset = parseOffset(c.req.query('offset'));
    const cursor = parseCursor(c.req.query('cursor'));
    if (cursor !== undefined && offset > 0) throw new ChainError('INVALID_PARAMS', 'give offset or cursor, not both');
    const page = await queries.chain.addressTxs(address, parseLimit(c.req.query('limit'), 100), offset, cursor);
    return c.json({ address, count: page.txs.length, txs: page.txs, nextCursor: page.nextCursor });
  });
  return app;
}
