/**
 * /api/social: the spec's Social table plus `profile/:address` and `blob/:blobId`. Lists take
 * `limit` (default 30, at most 100) and `offset`; unknown ids answer 404 NOT_FOUND.
 * Blobs are served as uploaded bytes, streamed, with their content type, `ETag` (the quoted
 * contentHash), the immutable cache header, `nosniff` and a sandboxing CSP, since an uploader
 * chooses the content type.
 */
import { Hono } from 'hono';
import { BLOBS, LIKE_CAPS } from '../../../core/tx/social/social.ts';
import { contentResponse } from '../../contentResponse.ts';
import { IMMUTABLE } from '../nfts/nftRoutes.ts';
import type { ApiDeps } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { SOCIAL_ENDPOINTS as E } from './socialEndpoints.ts';

/** /api/social. */
export function socialRoutes({ queries }: ApiDeps): Hono {
  const { social, content } = queries;
  const app = new Hono();

  return resource(
    E,
    {
      getApiSocialCaps: (c) => c.json({ ...LIKE_CAPS }),
      getApiSocialFeed: async (c, { query: { limit, offset } }) => {
        const { count, items } = await social.feed(limit, offset);
        return c.json({ count, posts: items });
      },
      getApiSocialPostPostId: async (c, { params: { postId } }) => {
        const post = (await social.post(postId)) ?? notFound(`post ${postId}`);
        return c.json({ ...post, likes: (await social.likes(postId)).items });
      },
      getApiSocialPostPostIdLikes: async (c, { params: { postId }, query: { limit, offset } }) => {
        if (!(await social.post(postId))) notFound(`post ${postId}`);
        const { count, items } = await social.likes(postId, limit, offset);
        return c.json({ postId, count, likes: items });
      },
      getApiSocialPostPostIdReplies: async (c, { params: { postId }, query: { limit, offset } }) => {
        if (!(await social.post(postId))) notFound(`post ${postId}`);
        const { count, items } = await social.replies(postId, limit, offset);
        return c.json({ postId, count, replies: items });
      },
      getApiSocialAuthorAddressPosts: async (c, { params: { address: author }, query: { limit, offset } }) => {
        const { count, items } = await social.byAuthor(author, limit, offset);
        return c.json({ author, count, posts: items });
      },
      getApiSocialSubscriptionsSubscriber: async (c, { params: { subscriber }, query: { limit, offset } }) => {
        const { count, items } = await social.subscriptions(subscriber, limit, offset);
        return c.json({ subscriber, count, subscriptions: items });
      },
      getApiSocialFollowersAddress: async (c, { params: { address }, query: { limit, offset } }) => {
        const { count, items } = await social.followers(address, limit, offset);
        return c.json({ address, count, followers: items });
      },
      getApiSocialQueueAuthor: async (c, { params: { author }, query: { limit, offset } }) => {
        const { count, items } = await social.queue(author, limit, offset);
        return c.json({ author, count, intents: items });
      },
      getApiSocialIntentsIntentId: async (c, { params: { intentId } }) => {
        return c.json((await social.intent(intentId)) ?? notFound(`like intent ${intentId}`));
      },
      getApiSocialDmsAddress: async (c, { params: { address }, query: { limit, offset } }) => {
        const { count, items } = await social.dms(address, limit, offset);
        return c.json({ address, count, messages: items });
      },
      getApiSocialProfileAddress: async (c, { params: { address } }) => {
        return c.json((await social.profile(address)) ?? notFound(`profile of ${address}`));
      },
      getApiSocialBlobBlobId: async (c, { params: { blobId } }) => {
        return contentResponse(c, (await content.served(BLOBS, blobId)) ?? notFound(`blob ${blobId}`), { 'Cache-Control': IMMUTABLE });
      },
    },
    { app },
  );
}
