/**
 * Image NFTs (/api/image, fourth fork) and audio NFTs (/api/audio, fifth fork). Before its fork
 * every route of a kind answers 403 FORK_NOT_ACTIVE. `/` `{total, items}` newest first (limit
 * default 30, at most 100, offset), `/owner/:address` `{owner, count, items}` (count = the owner's
 * total), `/:tokenId` the record, `/:tokenId/file` the minted file from the blob store with its
 * content type, `ETag` (the blob's SHA-256), an immutable cache header, `nosniff` and the sandbox CSP; a matching
 * `If-None-Match` answers 304.
 */
import { Hono } from 'hono';
import type { ForkId } from '../../core/schema.ts';
import { contentResponse } from '../contentResponse.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { forkGate } from '../forkGate.ts';
import { serve } from '../endpoints/endpoint.ts';
import { MEDIA_ENDPOINTS } from '../endpoints/nfts.ts';
import { mountTokenRoutes } from './tokenRoutes.ts';

/** Cache-Control of a minted file: its bytes can never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** /api/image or /api/audio. */
export function mediaRoutes({ chain, queries }: ApiDeps, kind: 'image' | 'audio', fork: ForkId): Hono {
  const tokens = queries.media[kind];
  const e = MEDIA_ENDPOINTS[kind];
  const app = new Hono();
  app.use(`/api/${kind}/*`, forkGate(chain, fork, `${kind} NFTs`));

  mountTokenRoutes(app, e, tokens, `${kind} NFT`);

  serve(app, e.file, async (c, { params: { tokenId } }) => {
    const n = (await tokens.get(tokenId)) ?? notFound(`${kind} NFT ${tokenId}`);
    const file = (await queries.media.file(n)) ?? notFound(`the file of ${kind} NFT ${tokenId}`);
    return contentResponse(c, file, { 'Cache-Control': IMMUTABLE });
  });

  return app;
}
