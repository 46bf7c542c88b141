// The social pages: the feed, one post with its thread and likes, and profiles and author
// timelines with their posts.
import type { Answers, OmbraClient } from '../../client/browser.ts';
import { el } from './dom.ts';
import { addr, ageCell, amount, badge, dataTable, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { liveList, txsOfType } from './liveList.ts';
import { pagedTable, splitArg } from './paging.ts';

const ADDRESS = /^ox[0-9a-fA-F]{40}$/;
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const postLink = (id: string) => idLink(`post/${encodeURIComponent(id)}`, id, 12);
const excerpt = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The columns of a list of posts. */
const POST_HEAD = ['post', 'author', 'text', 'likes', 'reply to', 'age'];
type Post = Answers['getApiSocialFeed']['posts'][number];
const postRow = (p: Post) => [
  postLink(p.postId),
  addr(p.author),
  p.body ? excerpt(p.body) : el('span', { class: 'muted' }, `${p.blobIds.length} attachment(s)`),
  String(p.likeCount),
  p.parentPostId ? postLink(p.parentPostId) : none(),
  ageCell(p.timestamp),
];

const postsOf = (client: OmbraClient, address?: string) => async (p: { limit: number; offset: number }) => {
  const r = address ? await client.read('getApiSocialAuthorAddressPosts', { address }, p) : await client.read('getApiSocialFeed', {}, p);
  return { items: r.posts, total: r.count };
};

export async function feedPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  const page = pageOf(
    'Social feed',
    section(
      'Posts, newest first',
      await pagedTable({
        caption: 'Posts, newest first',
        base: 'feed',
        query,
        load: postsOf(client),
        head: POST_HEAD,
        row: postRow,
        empty: 'No posts yet.',
      }),
    ),
  );
  return liveList(page, arg, txsOfType('SOCIAL_POST_CREATE'), 'post');
}

export async function postsPage(client: OmbraClient, arg: string) {
  const [a, query] = splitArg(arg);
  if (!ADDRESS.test(a)) return null;
  const address = a.toLowerCase();
  return pageOf(
    ['Posts by ', el('span', { class: 'mono id' }, address)],
    section(
      'Timeline',
      await pagedTable({
        caption: 'Posts, newest first',
        base: `posts/${address}`,
        query,
        load: postsOf(client, address),
        head: POST_HEAD,
        row: postRow,
        empty: 'No posts yet.',
      }),
    ),
  );
}

export async function postPage(client: OmbraClient, arg: string) {
  const [id, query] = splitArg(arg);
  if (!RECORD_ID.test(id)) return null;
  const post = await client.find('getApiSocialPostPostId', { postId: id });
  if (!post) return null;
  // The thread above this post: its parents, up to 20.
  const parents = [];
  for (let p = post.parentPostId; p && parents.length < 20; ) {
    const parent = await client.find('getApiSocialPostPostId', { postId: p });
    if (!parent) break;
    parents.unshift(parent);
    p = parent.parentPostId;
  }
  const replies = await pagedTable({
    caption: 'Replies, newest first',
    base: `post/${encodeURIComponent(post.postId)}`,
    query,
    load: async (p) => {
      const r = await client.read('getApiSocialPostPostIdReplies', { postId: post.postId }, p);
      return { items: r.replies, total: r.count };
    },
    head: POST_HEAD,
    row: postRow,
    empty: 'No replies yet.',
  });
  const likes = await client.read('getApiSocialPostPostIdLikes', { postId: post.postId }, { limit: 100 });
  return pageOf(
    ['Post ', el('span', { class: 'mono id' }, post.postId)],
    section(
      'Post',
      el('blockquote', { class: 'post' }, post.body || el('span', { class: 'muted' }, '(no text)')),
      fields('Post', [
        ['Author', fullId(post.author, `address/${post.author}`, 'author address')],
        ['Profile', el('a', { href: `#/profile/${post.author}` }, 'profile and timeline')],
        ['Time', utc(post.timestamp)],
        ['Block', el('a', { href: `#/block/${post.blockIndex}` }, `#${post.blockIndex}`)],
        ['Transaction', idLink(`tx/${post.txHash}`, post.txHash)],
        ['Likes', String(post.likeCount)],
        [
          'Attachments',
          post.blobIds.length
            ? el(
                'ul',
                { class: 'plain' },
                ...post.blobIds.map((b) => el('li', {}, el('a', { href: `/api/social/blob/${b}`, class: 'mono id' }, b))),
              )
            : none(),
        ],
      ]),
    ),
    section(
      'Thread',
      parents.length || post.parentPostId
        ? dataTable(
            'Posts this one replies to, oldest first',
            POST_HEAD,
            parents.map(postRow),
            'The parent post is not known to this node.',
          )
        : el('p', { class: 'muted' }, 'This post starts its thread.'),
      el('h3', {}, 'Replies'),
      replies,
    ),
    section(
      `Likes (${likes.count.toLocaleString('en-US')})`,
      likes.count > likes.likes.length ? el('p', { class: 'muted' }, `The latest ${likes.likes.length}:`) : null,
      dataTable(
        'Likes, newest first',
        ['from', 'kind', 'tokens', 'age'],
        likes.likes.map((l) => [addr(l.address), badge(l.kind), l.tokens === undefined ? none() : amount(l.tokens), ageCell(l.timestamp)]),
        'No likes yet.',
      ),
    ),
  );
}

export async function profilePage(client: OmbraClient, arg: string) {
  const [a, query] = splitArg(arg);
  if (!ADDRESS.test(a)) return null;
  const address = a.toLowerCase();
  const profile = await client.find('getApiSocialProfileAddress', { address });
  const avatar = profile?.avatarBlobId
    ? el('img', { src: `/api/social/blob/${profile.avatarBlobId}`, alt: `Avatar of ${profile.displayName || address}`, class: 'avatar' })
    : null;
  avatar?.addEventListener('error', () => avatar.remove());
  return pageOf(
    ['Profile ', profile?.displayName ? profile.displayName : el('span', { class: 'mono id' }, address)],
    section(
      'Profile',
      avatar,
      fields('Profile', [
        ['Address', fullId(address, `address/${address}`, 'address')],
        ['Display name', profile ? profile.displayName || none() : 'no profile set'],
        ['Bio', profile?.bio || none()],
        ['Follows', el('a', { href: `#/follows/${address}` }, 'accounts this address follows')],
        ['Followers', el('a', { href: `#/followers/${address}` }, 'accounts that follow this address')],
        ['Funded likes', el('a', { href: `#/queue/${address}` }, 'queue of funded likes for this author')],
        ['Direct messages', el('a', { href: `#/dms/${address}` }, 'messages sent and received (metadata)')],
      ]),
    ),
    section(
      'Posts',
      await pagedTable({
        caption: 'Posts, newest first',
        base: `profile/${address}`,
        query,
        load: postsOf(client, address),
        head: POST_HEAD,
        row: postRow,
        empty: 'No posts yet.',
      }),
    ),
  );
}
