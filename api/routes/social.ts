/**
 * /api/social: the spec's Social table plus `profile/:address` and `blob/:blobId`. Lists take
 * `limit` (default 30, at most 100) and `offset`; unknown ids answer 404 NOT_FOUND.
 * Blobs are served as uploaded bytes, streamed, with their content type, `ETag` (the quoted
 * contentHash), the immutable cache header, `nosniff` and a sandboxing CSP, since an uploader
 * chooses the content type.
 */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import { BLOBS, LIKE_CAPS } from '../../core/tx/social/social.ts';
import { contentResponse } from '../contentResponse.ts';
import { IMMUTABLE } from './media.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { parseAddress, parseHash, parseLimit, parseOffset } from '../params.ts';

/** A post id: 1-64 of [A-Za-z0-9_-]. */
function parsePostId(s: string | undefined): string {
  if (s === undefined || !/^[A-Za-z0-9_-]{1,64}$/.test(s)) throw new ChainError('INVALID_PARAMS', 'postId must be 1-64 of [A-Za-z0-9_-]');
  return s;
}

/** /api/social. */
export function socialRoutes({ queries }: ApiDeps): Hono {
  const { social, content } = queries;
  const app = new Hono();
  const page = (c: { req: { query(k: string): string | undefined } }) => ({
    limit: parseLimit(c.req.query('limit')),
    offset: parseOffset(c.req.query('offset')),
  });

  app.get('/caps', (c) => c.json({ ...LIKE_CAPS }));

  app.get('/feed', async (c) => {
    const { limit, offset } = page(c);
    return c.json({ posts: (await social.feed(limit, offset)).items });
  });

  app.get('/post/:postId', async (c) => {
    const postId = parsePostId(c.req.param('postId'));
    const post = (await social.post(postId)) ?? notFound(`post ${postId}`);
    return c.json({ ...post, likes: await social.likes(postId) });
  });

  app.get('/author/:address/posts', async (c) => {
    const author = parseAddress(c.req.param('address'));
    const { limit, offset } = page(c);
    const { count, items } = await social.byAuthor(author, limit, offset);
    return c.json({ author, count, posts: items });
  });

  app.get('/subscriptions/:subscriber', async (c) => {
    const subscriber = parseAddress(c.req.param('subscriber'), 'subscriber');
    const { limit, offset } = page(c);
    const { count, items } = await social.subscriptions(subscriber, limit, offset);
    return c.json({ subscriber, count, subscriptions: items });
  });

  app.get('/queue/:author', async (c) => {
    const author = parseAddress(c.req.param('author'), 'author');
    const { limit, offset } = page(c);
    const { count, items } = await social.queue(author, limit, offset);
    return c.json({ author, count, intents: items });
  });

  app.get('/intents/:intentId', async (c) => {
    const intentId = parseHash(c.req.param('intentId'), 'intentId');
    return c.json((await social.intent(intentId)) ?? notFound(`like intent ${intentId}`));
  });

  app.get('/dms/:address', async (c) => {
    const address = parseAddress(c.req.param('address'));
    const { limit, offset } = page(c);
    const { count, items } = await social.dms(address, limit, offset);
    return c.json({ address, count, messages: items });
  });

  app.get('/profile/:address', async (c) => {
    const address = parseAddress(c.req.param('address'));
    return c.json((await social.profile(address)) ?? notFound(`profile of ${address}`));
  });

  app.get('/blob/:blobId', async (c) => {
    const blobId = parseHash(c.req.param('blobId'), 'blobId');
    return contentResponse(c, (await content.served(BLOBS, blobId)) ?? notFound(`blob ${blobId}`), { 'Cache-Control': IMMUTABLE });
  });

  return app;
}
