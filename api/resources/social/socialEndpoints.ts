/** The definitions of the social routes (/api/social). */
import { endpoints } from '../../endpoints/endpoint.ts';
import { addressParam, CONTENT_HEADERS, hashParam, matching, paging } from '../../endpoints/params.ts';
import { EXAMPLE_IDS } from '../../endpoints/examples.ts';
import { address, arr, hash, keyedList, ms, obj, oneOf, str, uint } from '../../../queries/schemas/shapes.ts';

const tag = 'social';
const postIdParam = matching(/^[A-Za-z0-9_-]{1,64}$/, 'post id', 'postId must be 1-64 of [A-Za-z0-9_-]', 'sim-1-882058');
const blobIds = arr(hash);
const postFields = {
  postId: str,
  author: address,
  likeCount: uint,
  timestamp: ms,
  blockIndex: uint,
  txHash: hash,
  body: str,
  blobIds,
  parentPostId: str,
};
const post = obj(postFields, ['parentPostId']);
const like = obj({ address, kind: oneOf('reaction', 'intent'), tokens: uint, timestamp: ms }, ['tokens']);
const intent = obj(
  {
    intentId: hash,
    from: address,
    author: address,
    postId: str,
    tokens: uint,
    status: oneOf('pending', 'paid', 'expired'),
    createdAt: ms,
    expiresAt: ms,
    settledAt: ms,
    blockIndex: uint,
  },
  ['settledAt'],
);
const dm = obj({
  dmId: str,
  from: address,
  recipient: address,
  ciphertext: str,
  nonceHex: { type: 'string', pattern: '^[0-9a-f]{48}$' },
  ephemeralPubKey: hash,
  contentHash: hash,
  blobIds,
  timestamp: ms,
  blockIndex: uint,
});

/** Social routes. */
export const SOCIAL_ENDPOINTS = endpoints({
  getApiSocialCaps: {
    method: 'GET',
    path: '/api/social/caps',
    tag,
    summary: 'The like caps record',
    ok: { schema: obj({ maxTokensPerLikeHard: uint, maxDailyTokensHard: uint, queueCapPerAuthor: uint, likeExpiryMs: uint }) },
  },
  getApiSocialFeed: {
    method: 'GET',
    path: '/api/social/feed',
    tag,
    summary: 'Every post, newest first (count: all posts)',
    query: paging(100),
    ok: { schema: obj({ count: uint, posts: arr(post) }) },
  },
  getApiSocialPostPostId: {
    method: 'GET',
    path: '/api/social/post/:postId',
    tag,
    summary: 'One post plus its likes (enabled reactions and paid funded likes, newest first)',
    params: { postId: postIdParam },
    ok: { schema: obj({ ...postFields, likes: arr(like) }, ['parentPostId']) },
    errors: [404],
  },
  getApiSocialPostPostIdLikes: {
    method: 'GET',
    path: '/api/social/post/:postId/likes',
    tag,
    summary: "A post's likes (enabled reactions and paid funded likes), newest first (count: all of them)",
    params: { postId: postIdParam },
    query: paging(100),
    ok: { schema: keyedList('postId', str, 'likes', like) },
    errors: [404],
  },
  getApiSocialPostPostIdReplies: {
    method: 'GET',
    path: '/api/social/post/:postId/replies',
    tag,
    summary: "A post's thread: its replies, oldest first (count: all of them)",
    params: { postId: postIdParam },
    query: paging(100),
    ok: { schema: keyedList('postId', str, 'replies', post) },
    errors: [404],
  },
  getApiSocialAuthorAddressPosts: {
    method: 'GET',
    path: '/api/social/author/:address/posts',
    tag,
    summary: "The author's timeline, newest first (count = all the author's posts)",
    params: { address: addressParam() },
    query: paging(100),
    ok: { schema: keyedList('author', address, 'posts', post) },
  },
  getApiSocialSubscriptionsSubscriber: {
    method: 'GET',
    path: '/api/social/subscriptions/:subscriber',
    tag,
    summary: 'Addresses the subscriber follows (like-funding subscriptions), in address order',
    params: { subscriber: addressParam('subscriber') },
    query: paging(100),
    ok: { schema: keyedList('subscriber', address, 'subscriptions', address) },
  },
  getApiSocialFollowersAddress: {
    method: 'GET',
    path: '/api/social/followers/:address',
    tag,
    summary: 'Addresses that follow the address (count: all of them), in address order',
    params: { address: addressParam() },
    query: paging(100),
    ok: { schema: keyedList('address', address, 'followers', address) },
  },
  getApiSocialQueueAuthor: {
    method: 'GET',
    path: '/api/social/queue/:author',
    tag,
    summary: "The author's pending SOCIAL_LIKE_INTENTs, oldest first (queue order)",
    params: { author: addressParam('author') },
    query: paging(100),
    ok: { schema: keyedList('author', address, 'intents', intent) },
  },
  getApiSocialIntentsIntentId: {
    method: 'GET',
    path: '/api/social/intents/:intentId',
    tag,
    summary: 'One like intent (its id is its transaction hash)',
    params: { intentId: hashParam('intent id', 'intentId', EXAMPLE_IDS.intent) },
    ok: { schema: intent },
    errors: [404],
  },
  getApiSocialDmsAddress: {
    method: 'GET',
    path: '/api/social/dms/:address',
    tag,
    summary: 'Direct messages sent and received, newest first, ciphertext only',
    params: { address: addressParam() },
    query: paging(100),
    ok: { schema: keyedList('address', address, 'messages', dm) },
  },
  getApiSocialProfileAddress: {
    method: 'GET',
    path: '/api/social/profile/:address',
    tag,
    summary: "An account's profile",
    params: { address: addressParam() },
    ok: { schema: obj({ address, displayName: str, bio: str, avatarBlobId: hash }, ['avatarBlobId']) },
    errors: [404],
  },
  getApiSocialBlobBlobId: {
    method: 'GET',
    path: '/api/social/blob/:blobId',
    tag,
    summary: "A complete blob's bytes: its content type, ETag (quoted contentHash; If-None-Match answers 304), immutable cache",
    params: { blobId: hashParam('blob id', 'blobId', EXAMPLE_IDS.blob) },
    headers: CONTENT_HEADERS,
    ok: { contentType: '*/*', description: 'the blob bytes, with its content type' },
    errors: [404, 416],
  },
});
