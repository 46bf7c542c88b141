/**
 * The routes every kind of NFT has (art, image, audio): `/` `{total, items}` newest first (limit
 * default 30, at most 100, offset), `/owner/:address` `{owner, count, items}` (count = the owner's
 * total), `/:tokenId` the record; records are served without their transaction hash.
 */
import type { Hono } from 'hono';
import { servedToken, type TokenKind, type TokenQueries } from '../../queries/tokenQueries.ts';
import { notFound } from '../errors.ts';
import { parseAddress, parseHash, parseLimit, parseOffset } from '../params.ts';

/** Mounts the list, owner and record routes of one kind of token on `app`. */
export function mountTokenRoutes<K extends TokenKind>(app: Hono, tokens: TokenQueries<K>, what: string): void {
  app.get('/', (c) => {
    const limit = parseLimit(c.req.query('limit'));
    const offset = parseOffset(c.req.query('offset'));
    const all = tokens.all();
    return c.json({ total: all.length, items: all.slice(offset, offset + limit).map(servedToken) });
  });

  app.get('/owner/:address', (c) => {
    const owner = parseAddress(c.req.param('address'));
    const limit = parseLimit(c.req.query('limit'));
    const offset = parseOffset(c.req.query('offset'));
    const mine = tokens.owned(owner);
    return c.json({ owner, count: mine.length, items: mine.slice(offset, offset + limit).map(servedToken) });
  });

  app.get('/:tokenId', (c) => {
    const tokenId = parseHash(c.req.param('tokenId'), 'tokenId');
    const n = tokens.get(tokenId);
    return n ? c.json(servedToken(n)) : notFound(`${what} ${tokenId}`);
  });
}
