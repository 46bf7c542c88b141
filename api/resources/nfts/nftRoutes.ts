/**
 * The NFT resource: every definition of ./nftEndpoints.ts served by its handler. /api/nft
 * (art, third fork), /api/image (fourth) and /api/audio (fifth); before its fork every route of
 * a kind answers 403 FORK_NOT_ACTIVE. Each kind has `/` `{total, items}` newest first (limit
 * default 30, at most 100, offset), `/owner/:address` `{owner, count, items}` (count = the
 * owner's total) and `/:tokenId` the record (served without its transaction hash). Art adds
 * `/:tokenId/svg`, the raw SVG from the ART_MINT transaction (cacheable, and served sandboxed
 * under a CSP that forbids everything but inline styles, as a second line behind the on-chain
 * sanitiser); image and audio add `/:tokenId/file`, the minted file from the blob store with its
 * content type, `ETag` (the blob's SHA-256), an immutable cache header, `nosniff` and the sandbox
 * CSP (a matching `If-None-Match` answers 304).
 */
import { type Context, Hono } from 'hono';
import { servedToken, type TokenKind, type TokenQueries } from '../../../queries/tokenQueries.ts';
import { contentResponse, refuseAsScript, USER_CONTENT_VARY, userContentHeaders } from '../../contentResponse.ts';
import type { ApiDeps } from '../../context.ts';
import { type Handler, resource } from '../../endpoints/endpoint.ts';
import { ALL_NFT_ENDPOINTS as E } from './nftEndpoints.ts';
import { notFound } from '../../errors.ts';
import { forkGate } from '../../forkGate.ts';

/** Cache-Control of a minted file: its bytes can never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Headers of the SVG body. */
const SVG_HEADERS = {
  'Content-Type': 'image/svg+xml',
  'Cache-Control': 'public, max-age=3600',
  Vary: USER_CONTENT_VARY,
  ...userContentHeaders("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
} as const;

/** A page's input. */
type PageInput = { query: { limit: number; offset: number } };

/**
 * The list, owner and record handlers of one kind of token. Their answers are typed by what they
 * serve; the resource checks each kind's against that kind's definition.
 */
function tokenHandlers<K extends TokenKind>(tokens: TokenQueries<K>, what: string) {
  return {
    list: async (c: Context, { query: { limit, offset } }: PageInput) => {
      const { total, items } = await tokens.page(limit, offset);
      return c.json({ total, items: items.map(servedToken) });
    },
    owner: async (c: Context, { params: { address: owner }, query: { limit, offset } }: PageInput & { params: { address: string } }) => {
      const mine = await tokens.page(limit, offset, owner);
      return c.json({ owner, count: mine.total, items: mine.items.map(servedToken) });
    },
    token: async (c: Context, { params: { tokenId } }: { params: { tokenId: string } }) => {
      const n = await tokens.get(tokenId);
      return n ? c.json(servedToken(n)) : notFound(`${what} ${tokenId}`);
    },
  };
}

/** The NFT resource: art, image and audio NFTs, each kind behind its fork. */
export function nftRoutes({ chain, queries }: ApiDeps): Hono {
  const { nfts } = queries;
  const app = new Hono();
  app.use('/api/nft/*', forkGate(chain, 3, 'art NFTs'));
  app.use('/api/image/*', forkGate(chain, 4, 'image NFTs'));
  app.use('/api/audio/*', forkGate(chain, 5, 'audio NFTs'));
  const art = tokenHandlers(nfts, 'NFT');
  const image = tokenHandlers(queries.media.image, 'image NFT');
  const audio = tokenHandlers(queries.media.audio, 'audio NFT');
  const file =
    (kind: 'image' | 'audio'): Handler<typeof E.getApiImageTokenIdFile> =>
    async (c, { params: { tokenId } }) => {
      const n = (await queries.media[kind].get(tokenId)) ?? notFound(`${kind} NFT ${tokenId}`);
      const found = (await queries.media.file(n)) ?? notFound(`the file of ${kind} NFT ${tokenId}`);
      return contentResponse(c, found, { 'Cache-Control': IMMUTABLE });
    };

  return resource(
    E,
    {
      getApiNft: art.list,
      getApiNftOwnerAddress: art.owner,
      getApiNftTokenIdSvg: async (c, { params: { tokenId } }) => {
        refuseAsScript(c);
        const n = (await nfts.get(tokenId)) ?? notFound(`NFT ${tokenId}`);
        const svg = (await nfts.svg(n)) ?? notFound(`SVG of NFT ${tokenId}`);
        return c.body(svg, 200, SVG_HEADERS);
      },
      getApiNftTokenId: art.token,
      getApiImage: image.list,
      getApiImageOwnerAddress: image.owner,
      getApiImageTokenIdFile: file('image'),
      getApiImageTokenId: image.token,
      getApiAudio: audio.list,
      getApiAudioOwnerAddress: audio.owner,
      getApiAudioTokenIdFile: file('audio'),
      getApiAudioTokenId: audio.token,
    },
    { app },
  );
}
