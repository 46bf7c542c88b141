/**
 * NFTs. /api/nft (art, third fork): `/` `{total, items}` newest first (limit default 30, at most
 * 100, offset), `/:tokenId` metadata without the SVG, `/:tokenId/svg` the raw SVG from the
 * ART_MINT transaction (cacheable, and served sandboxed under a CSP that forbids everything but inline
 * styles, as a second line behind the on-chain sanitiser), `/owner/:address` `{owner, count,
 * items}` (count = the owner's total). Image and audio NFTs: api/routes/media.ts.
 */
import { Hono } from 'hono';
import { refuseAsScript, USER_CONTENT_VARY, userContentHeaders } from '../contentResponse.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { forkGate } from '../forkGate.ts';
import { serve } from '../endpoints/endpoint.ts';
import { NFT_ENDPOINTS as E } from '../endpoints/nfts.ts';
import { mountTokenRoutes } from './tokenRoutes.ts';

/** Headers of the SVG body. */
const SVG_HEADERS = {
  'Content-Type': 'image/svg+xml',
  'Cache-Control': 'public, max-age=3600',
  Vary: USER_CONTENT_VARY,
  ...userContentHeaders("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
} as const;

/** /api/nft. */
export function nftRoutes({ chain, queries }: ApiDeps): Hono {
  const { nfts } = queries;
  const app = new Hono();
  app.use('/api/nft/*', forkGate(chain, 3, 'art NFTs'));

  mountTokenRoutes(app, { list: E.getApiNft, owner: E.getApiNftOwnerAddress, token: E.getApiNftTokenId }, nfts, 'NFT');

  serve(app, E.getApiNftTokenIdSvg, async (c, { params: { tokenId } }) => {
    refuseAsScript(c);
    const n = (await nfts.get(tokenId)) ?? notFound(`NFT ${tokenId}`);
    const svg = (await nfts.svg(n)) ?? notFound(`SVG of NFT ${tokenId}`);
    return c.body(svg, 200, SVG_HEADERS);
  });

  return app;
}
