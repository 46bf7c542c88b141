/**
 * The routes every kind of NFT has (art, image, audio): `/` `{total, items}` newest first (limit
 * default 30, at most 100, offset), `/owner/:address` `{owner, count, items}` (count = the owner's
 * total), `/:tokenId` the record; records are served without their transaction hash.
 */
import type { Hono } from 'hono';
import { servedToken, type TokenKind, type TokenQueries } from '../../queries/tokenQueries.ts';
import { notFound } from '../errors.ts';
import { serve } from '../endpoints/endpoint.ts';
import type { TokenEndpoints } from '../endpoints/nfts.ts';

/** Mounts the list, owner and record routes of one kind of token on `app`. */
export function mountTokenRoutes<K extends TokenKind>(app: Hono, e: TokenEndpoints, tokens: TokenQueries<K>, what: string): void {
  serve(app, e.list, async (c, { query: { limit, offset } }) => {
    const { total, items } = await tokens.page(limit, offset);
    return c.json({ total, items: items.map(servedToken) });
  });

  serve(app, e.owner, async (c, { params: { address: owner }, query: { limit, offset } }) => {
    const mine = await tokens.page(limit, offset, owner);
    return c.json({ owner, count: mine.total, items: mine.items.map(servedToken) });
  });

  serve(app, e.token, async (c, { params: { tokenId } }) => {
    const n = await tokens.get(tokenId);
    return n ? c.json(servedToken(n)) : notFound(`${what} ${tokenId}`);
  });
}
