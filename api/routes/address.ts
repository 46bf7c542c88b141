/** The older address routes: /api/address/:addr, /balance, /txs. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { ChainError } from '../../core/errors.ts';
import { serve } from '../endpoints/endpoint.ts';
import { LEDGER_ENDPOINTS as E } from '../endpoints/ledger.ts';
import { filteredTxs, filtering } from './exports.ts';

/** Address routes. */
export function addressRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  serve(app, E.getApiAddressAddr, async (c, { params: { addr: address } }) => {
    const a = await queries.chain.account(address);
    return c.json({ address, balance: a.balance.toString(), nonce: a.nonce });
  });
  serve(app, E.getApiAddressAddrBalance, async (c, { params: { addr: address } }) => {
    return c.json({ address, balance: (await queries.chain.account(address)).balance.toString() });
  });
  serve(app, E.getApiAddressAddrTxs, async (c, { params: { addr: address }, query: { offset, cursor, limit, ...filter } }) => {
    if (cursor !== undefined && offset > 0) throw new ChainError('INVALID_PARAMS', 'give offset or cursor, not both');
    if (filtering(filter)) {
      if (cursor !== undefined) throw new ChainError('INVALID_PARAMS', 'a filtered list pages by offset, not cursor');
      const txs: unknown[] = [];
      let total = 0;
      for await (const page of filteredTxs(queries, address, filter))
        for (const t of page) if (total++ >= offset && txs.length < limit) txs.push(t);
      return c.json({ address, count: txs.length, total, txs, nextCursor: null });
    }
    const page = await queries.chain.addressTxs(address, limit, offset, cursor);
    return c.json({ address, count: page.txs.length, total: page.total, txs: page.txs, nextCursor: page.nextCursor });
  });
  return app;
}
