/** The catalog of the social routes (/api/social). */
import { addressParam, CONTENT_HEADERS, hashParam, keyedList, paging, type ParamDoc, type RouteCatalog } from './routeDoc.ts';
import { address, arr, hash, ms, obj, oneOf, str, uint } from './shapes.ts';

const tag = 'social';
const postIdParam: ParamDoc = { schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' }, description: 'post id' };
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
export const SOCIAL_ROUTES: RouteCatalog = {
  'GET /api/social/caps': {
    tag,
    summary: 'The like caps record',
    ok: { schema: obj({ maxTokensPerLikeHard: uint, maxDailyTokensHard: uint, queueCapPerAuthor: uint, likeExpiryMs: uint }) },
  },
  'GET /api/social/feed': {
    tag,
    summary: 'Every post, newest first',
    query: paging(100),
    ok: { schema: obj({ posts: arr(post) }) },
  },
  'GET /api/social/post/:postId': {
    tag,
    summary: 'One post plus its likes (enabled reactions and paid funded likes, newest first)',
    params: { postId: postIdParam },
    ok: { schema: obj({ ...postFields, likes: arr(like) }, ['parentPostId']) },
    errors: [404],
  },
  'GET /api/social/author/:address/posts': {
    tag,
    summary: "The author's timeline, newest first (count = all the author's posts)",
    params: { address: addressParam },
    query: paging(100),
    ok: { schema: keyedList('author', address, 'posts', post) },
  },
  'GET /api/social/subscriptions/:subscriber': {
    tag,
    summary: 'Addresses the subscriber follows (like-funding subscriptions), in address order',
    params: { subscriber: addressParam },
    query: paging(100),
    ok: { schema: keyedList('subscriber', address, 'subscriptions', address) },
  },
  'GET /api/social/queue/:author': {
    tag,
    summary: "The author's pending SOCIAL_LIKE_INTENTs, oldest first (queue order)",
    params: { author: addressParam },
    query: paging(100),
    ok: { schema: keyedList('author', address, 'intents', intent) },
  },
  'GET /api/social/intents/:intentId': {
    tag,
    summary: 'One like intent (its id is its transaction hash)',
    params: { intentId: hashParam('intent id') },
    ok: { schema: intent },
    errors: [404],
  },
  'GET /api/social/dms/:address': {
    tag,
    summary: 'Direct messages sent and received, newest first, ciphertext only',
    params: { address: addressParam },
    query: paging(100),
    ok: { schema: keyedList('address', address, 'messages', dm) },
  },
  'GET /api/social/profile/:address': {
    tag,
    summary: "An account's profile",
    params: { address: addressParam },
    ok: { schema: obj({ address, displayName: str, bio: str, avatarBlobId: hash }, ['avatarBlobId']) },
    errors: [404],
  },
  'GET /api/social/blob/:blobId': {
    tag,
    summary: "A complete blob's bytes: its content type, ETag (quoted contentHash; If-None-Match answers 304), immutable cache",
    params: { blobId: hashParam('blob id') },
    headers: CONTENT_HEADERS,
    ok: { contentType: '*/*', description: 'the blob bytes, with its content type' },
    errors: [404, 416],
  },
};
