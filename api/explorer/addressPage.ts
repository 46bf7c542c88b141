// An address: balance, storage, miner and profile, links with counts to everything it owns or
// wrote (posts, follows, funded likes, DMs, NFTs, agent runs, conversations), and its
// transactions paged, each with its direction, counterparty, value, fee and age.
import type { OmbraClient } from '../../client/browser.ts';
import { txRows, withPostAuthors } from './txPages.ts';
import { el } from './dom.ts';
import { directionOf } from './fields.ts';
import { ageCell, amount, bytes, fields, fullId, none, pageOf, section } from './format.ts';
import { pagedTable, splitArg } from './paging.ts';
import { TX_TYPES } from '../explorerTxTables.ts';

const ADDRESS = /^ox[0-9a-fA-F]{40}$/;

/** A count from a list read with limit 1, or null when the read is refused (a fork not active yet). */
async function countOf(read: () => Promise<{ count: number }>): Promise<number | null> {
  try {
    return (await read()).count;
  } catch {
    return null;
  }
}

/** A link of the address page: label, page, how to count what is behind it, and whether the count is only of one page. */
type Related = [label: string, href: string, count: () => Promise<number | null>, onePage?: boolean];

/**
 * The links of an address to its other pages; how many there are behind each is read on demand
 * (a button): eleven reads would be a fifth of an anonymous visitor's quota for a minute.
 */
function related(client: OmbraClient, a: string): HTMLElement {
  const one = { limit: 1 };
  const items: Related[] = [
    ['Posts', `posts/${a}`, () => countOf(() => client.read('getApiSocialAuthorAddressPosts', { address: a }, one))],
    ['Follows', `follows/${a}`, () => countOf(() => client.read('getApiSocialSubscriptionsSubscriber', { subscriber: a }, one))],
    ['Followers', `followers/${a}`, () => countOf(() => client.read('getApiSocialFollowersAddress', { address: a }, one))],
    ['Funded likes queued for this author', `queue/${a}`, () => countOf(() => client.read('getApiSocialQueueAuthor', { author: a }, one))],
    ['Direct messages (metadata)', `dms/${a}`, () => countOf(() => client.read('getApiSocialDmsAddress', { address: a }, one))],
    ['Art NFTs owned', `gallery/art?owner=${a}`, () => countOf(() => client.read('getApiNftOwnerAddress', { address: a }, one))],
    ['Image NFTs owned', `gallery/image?owner=${a}`, () => countOf(() => client.read('getApiImageOwnerAddress', { address: a }, one))],
    ['Audio NFTs owned', `gallery/audio?owner=${a}`, () => countOf(() => client.read('getApiAudioOwnerAddress', { address: a }, one))],
    // The agent lists count only the page they answer: a read of one tells none from some.
    [
      'Agent runs submitted',
      `runs/?submitter=${a}`,
      () => countOf(() => client.read('getApiAgentV6BySubmitterAddress', { address: a }, one)),
      true,
    ],
    [
      'Agent runs served as miner',
      `runs/?miner=${a}`,
      () => countOf(() => client.read('getApiAgentV6ByMinerAddress', { address: a }, one)),
      true,
    ],
    [
      'Conversations',
      `conversations/${a}`,
      () => countOf(() => client.read('getApiAgentV6ChatByAuthorAddress', { address: a }, one)),
      true,
    ],
  ];
  const shown = (n: number | null, onePage = false) =>
    n === null ? '(not active)' : onePage ? (n ? '' : '(none)') : `(${n.toLocaleString('en-US')})`;
  const marks = items.map(() => el('span', { class: 'muted' }));
  const button = el('button', { type: 'button', class: 'count-links' }, 'Count them');
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    const counts = await Promise.all(items.map(([, , count]) => count()));
    counts.forEach((n, i) => {
      marks[i].textContent = shown(n, items[i][3]);
    });
    button.remove();
  });
  return el(
    'div',
    {},
    el('ul', { class: 'links' }, ...items.map(([label, href], i) => el('li', {}, el('a', { href: `#/${href}` }, label), ' ', marks[i]))),
    button,
  );
}

/** The filters of an address's transactions, as the node reads them (api/resources/exports/exportEndpoints.ts). */
export interface TxFilter {
  type?: string;
  direction?: 'in' | 'out';
  /** Epoch ms: the first ms of a UTC day of the block's time. */
  since?: number;
  /** Epoch ms: the last ms of a UTC day of the block's time. */
  until?: number;
}

/**
 * The filters a query asks for (those the node reads: type, direction, since, until). The dates
 * are whole UTC days of the block's time, as Etherscan and Blockscout filter.
 */
export function filtersOf(query: URLSearchParams): TxFilter {
  const f: TxFilter = {};
  const type = query.get('type');
  if (type && /^[A-Z0-9_]{2,40}$/.test(type)) f.type = type;
  const direction = query.get('direction');
  if (direction === 'in' || direction === 'out') f.direction = direction;
  const day = (name: string, end: string) => {
    const d = query.get(name);
    return d && /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}${end}`)) ? Date.parse(`${d}${end}`) : undefined;
  };
  const since = day('since', 'T00:00:00Z');
  const until = day('until', 'T23:59:59.999Z');
  if (since !== undefined) f.since = since;
  if (until !== undefined) f.until = until;
  return f;
}

/** The filter form (a GET of the page with its query) and the CSV of what it shows. */
function filterForm(a: string, query: URLSearchParams, f: TxFilter, types: readonly string[]): HTMLElement {
  const id = (n: string) => `filter-${n}`;
  const type = el(
    'select',
    { id: id('type'), name: 'type' },
    el('option', { value: '' }, 'any'),
    ...types.map((t) => el('option', { value: t }, t)),
  );
  const direction = el(
    'select',
    { id: id('direction'), name: 'direction' },
    ...['any', 'in', 'out'].map((d) => el('option', { value: d === 'any' ? '' : d }, d)),
  );
  const since = el('input', { id: id('since'), name: 'since', type: 'date', value: query.get('since') ?? '' });
  const until = el('input', { id: id('until'), name: 'until', type: 'date', value: query.get('until') ?? '' });
  const form = el(
    'form',
    { class: 'filters', 'aria-label': 'Filter the transactions' },
    el('label', { for: id('type') }, 'Type '),
    type,
    el('label', { for: id('direction') }, 'Direction '),
    direction,
    el('label', { for: id('since') }, 'From '),
    since,
    el('label', { for: id('until') }, 'to '),
    until,
    el('button', { type: 'submit' }, 'Filter'),
    el(
      'p',
      { class: 'muted', id: id('note') },
      "Dates are UTC days of the block's time: when the chain recorded the transaction, not when it was signed.",
    ),
  );
  type.value = f.type ?? '';
  direction.value = f.direction ?? '';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const [n, input] of [
      ['type', type],
      ['direction', direction],
      ['since', since],
      ['until', until],
    ] as const)
      if (input.value) q.set(n, input.value);
    location.hash = `#/address/${a}${q.size ? `?${q}` : ''}`;
  });
  const csv = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) csv.set(k, String(v));
  return el(
    'div',
    {},
    form,
    el('p', {}, el('a', { href: `/api/csv/address/${a}${csv.size ? `?${csv}` : ''}`, download: '' }, 'Download these transactions as CSV')),
  );
}

export async function addressPage(client: OmbraClient, arg: string) {
  const [raw, query] = splitArg(arg);
  if (!ADDRESS.test(raw)) return null;
  const a = raw.toLowerCase();
  const filter = filtersOf(query);
  const [acct, wallet] = await Promise.all([client.account(a), client.read('getApiWalletBalanceAddress', { address: a })]);
  const links = related(client, a);
  // The account answer carries the profile: asking /api/social/profile would 404 (a console error) without one.
  const profile = acct.profile;
  const txs = await pagedTable({
    caption: 'Transactions of the address, newest first',
    base: `address/${a}`,
    query,
    load: async (p) => {
      const r = await client.read('getApiAddressAddrTxs', { addr: a }, { ...p, ...filter });
      return { items: await withPostAuthors(client, r.txs), total: r.total };
    },
    head: ['hash', 'type', 'block', 'age', 'direction', 'counterparty', 'value', 'fee'],
    row: (t) => {
      const [hash, type, , other, value, fee] = txRows([t], a)[0];
      const dir = directionOf(t, a);
      return [
        hash,
        type,
        el('a', { href: `#/block/${t.blockHeight}` }, `#${t.blockHeight}`),
        ageCell(t.blockTime),
        el('span', { class: `dir ${dir}` }, dir),
        other,
        value,
        fee,
      ];
    },
    empty: 'No transactions yet.',
  });
  return pageOf(
    ['Address ', el('span', { class: 'mono id' }, a)],
    section(
      'Overview',
      fields('Account', [
        ['Address', fullId(a, null, 'address')],
        ['Balance', amount(acct.balance)],
        ['Nonce', `${acct.nonce} (next transaction: ${acct.nextNonce})`],
        ['Storage', `${bytes(wallet.storageUsed)} used of ${bytes(wallet.storageCapacity)}`],
        [
          'Miner',
          acct.miner ? el('a', { href: `#/miner/${acct.miner.id}` }, `${acct.miner.name} (${acct.miner.tasksCompleted} tasks)`) : 'no',
        ],
        ['Profile', profile ? el('a', { href: `#/profile/${a}` }, profile.displayName || 'unnamed') : none()],
      ]),
    ),
    section('Activity', links),
    section('Transactions', filterForm(a, query, filter, TX_TYPES), txs),
  );
}
