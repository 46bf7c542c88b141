// An account's social ledger: whom it follows (like-funding subscriptions), the funded likes
// queued for it as an author and each funded like, and its direct messages as metadata (who
// wrote to whom, when, how many bytes: the ciphertext itself is never shown).
import type { Answers, OmbraClient } from '../../client/browser.ts';
import { el } from './dom.ts';
import { addr, ageCell, amount, badge, bytes, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { pagedTable, splitArg } from './paging.ts';

const ADDRESS = /^ox[0-9a-fA-F]{40}$/;
const postLink = (id: string) => idLink(`post/${encodeURIComponent(id)}`, id, 12);

export async function followsPage(client: OmbraClient, arg: string) {
  const [a, query] = splitArg(arg);
  if (!ADDRESS.test(a)) return null;
  const subscriber = a.toLowerCase();
  return pageOf(
    ['Follows of ', el('span', { class: 'mono id' }, subscriber)],
    section(
      'Accounts followed (like-funding subscriptions)',
      await pagedTable({
        caption: 'Accounts followed, in address order',
        base: `follows/${subscriber}`,
        query,
        load: async (p) => {
          const r = await client.read('getApiSocialSubscriptionsSubscriber', { subscriber }, p);
          return { items: r.subscriptions, total: r.count };
        },
        head: ['account', 'profile'],
        row: (s) => [addr(s), el('a', { href: `#/profile/${s}`, 'aria-label': `Profile of ${s}` }, 'profile')],
        empty: 'Follows nobody.',
      }),
    ),
  );
}

export async function followersPage(client: OmbraClient, arg: string) {
  const [a, query] = splitArg(arg);
  if (!ADDRESS.test(a)) return null;
  const address = a.toLowerCase();
  return pageOf(
    ['Followers of ', el('span', { class: 'mono id' }, address)],
    section(
      'Accounts that follow it',
      await pagedTable({
        caption: 'Followers',
        base: `followers/${address}`,
        query,
        load: async (p) => {
          const r = await client.read('getApiSocialFollowersAddress', { address }, p);
          return { items: r.followers, total: r.count };
        },
        head: ['account', 'profile'],
        row: (s) => [addr(s), el('a', { href: `#/profile/${s}`, 'aria-label': `Profile of ${s}` }, 'profile')],
        empty: 'No followers.',
      }),
    ),
  );
}

const INTENT_HEAD = ['like', 'from', 'author', 'post', 'tokens', 'status', 'created', 'expires'];
type Intent = Answers['getApiSocialQueueAuthor']['intents'][number];
const intentRow = (i: Intent) => [
  idLink(`intent/${i.intentId}`, i.intentId),
  addr(i.from),
  addr(i.author),
  postLink(i.postId),
  amount(i.tokens),
  badge(i.status),
  ageCell(i.createdAt),
  ageCell(i.expiresAt),
];

export async function queuePage(client: OmbraClient, arg: string) {
  const [a, query] = splitArg(arg);
  if (!ADDRESS.test(a)) return null;
  const author = a.toLowerCase();
  return pageOf(
    ['Funded likes for ', el('span', { class: 'mono id' }, author)],
    section(
      'Pending funded likes, oldest first',
      await pagedTable({
        caption: 'Funded likes queued for the author',
        base: `queue/${author}`,
        query,
        load: async (p) => {
          const r = await client.read('getApiSocialQueueAuthor', { author }, p);
          return { items: r.intents, total: r.count };
        },
        head: INTENT_HEAD,
        row: intentRow,
        empty: 'No funded likes wait for this author.',
      }),
    ),
  );
}

export async function intentPage(client: OmbraClient, arg: string) {
  const [id] = splitArg(arg);
  if (!/^[0-9a-fA-F]{64}$/.test(id)) return null;
  const i = await client.find('getApiSocialIntentsIntentId', { intentId: id.toLowerCase() });
  if (!i) return null;
  return pageOf(
    ['Funded like ', el('span', { class: 'mono id' }, i.intentId)],
    section(
      'Funded like',
      fields('Funded like', [
        ['Status', badge(i.status)],
        ['From', fullId(i.from, `address/${i.from}`, 'liker address')],
        ['Author', fullId(i.author, `address/${i.author}`, 'author address')],
        ['Post', postLink(i.postId)],
        ['Tokens', amount(i.tokens)],
        ['Created', utc(i.createdAt)],
        ['Expires', utc(i.expiresAt)],
        ['Settled', i.settledAt === undefined ? none() : utc(i.settledAt)],
        ['Block', el('a', { href: `#/block/${i.blockIndex}` }, `#${i.blockIndex}`)],
        ['Transaction', idLink(`tx/${i.intentId}`, i.intentId)],
      ]),
    ),
  );
}

export async function dmsPage(client: OmbraClient, arg: string) {
  const [a, query] = splitArg(arg);
  if (!ADDRESS.test(a)) return null;
  const address = a.toLowerCase();
  return pageOf(
    ['Direct messages of ', el('span', { class: 'mono id' }, address)],
    el('p', { class: 'muted' }, 'Messages are end-to-end encrypted: only who, when and how large is shown.'),
    section(
      'Sent and received, newest first',
      await pagedTable({
        caption: 'Direct messages, newest first',
        base: `dms/${address}`,
        query,
        load: async (p) => {
          const r = await client.read('getApiSocialDmsAddress', { address }, p);
          return { items: r.messages, total: r.count };
        },
        head: ['message', 'direction', 'from', 'recipient', 'size', 'attachments', 'block', 'age'],
        row: (m) => [
          el('span', { class: 'mono' }, m.dmId),
          badge(m.from === address ? (m.recipient === address ? 'self' : 'out') : 'in'),
          addr(m.from),
          addr(m.recipient),
          bytes(Math.floor((m.ciphertext.length * 3) / 4)),
          String(m.blobIds.length),
          el('a', { href: `#/block/${m.blockIndex}` }, `#${m.blockIndex}`),
          ageCell(m.timestamp),
        ],
        empty: 'No direct messages.',
      }),
    ),
  );
}
