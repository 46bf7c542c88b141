// An address: balance, storage, miner and profile, links with counts to everything it owns or
// wrote (posts, follows, funded likes, DMs, NFTs, agent runs, conversations), and its
// transactions paged, each with its direction, counterparty, value, fee and age.
import { txRows, withPostAuthors } from './chainPages.ts';
import { el } from './dom.ts';
import { directionOf } from './fields.ts';
import { ageCell, amount, bytes, fields, fullId, none, pageOf, section } from './format.ts';
import { pagedTable, splitArg } from './paging.ts';

const ADDRESS = /^ox[0-9a-fA-F]{40}$/;
/** The transaction types a filter offers (those of core/tx/). */
const TX_TYPES = (
  'TRANSFER BURN STORAGE_TRANSFER MINER_REGISTER TASK_SUBMIT TASK_RESPONSE TASK_VALIDATE TASK_REWARD AGENT_REQUEST AGENT_CLAIM ' +
  'AGENT_STEP AGENT_FINISH CHAT_TURN ART_MINT IMAGE_MINT AUDIO_MINT SOCIAL_POST_CREATE SOCIAL_REACTION_SET SOCIAL_FOLLOW_SET ' +
  'SOCIAL_PROFILE_SET SOCIAL_LIKE_INTENT SOCIAL_DM_SEND SOCIAL_BLOB SOCIAL_BLOB_INIT SOCIAL_BLOB_CHUNK SOCIAL_BLOB_FINALIZE ' +
  'WEB_SITE_REGISTER WEB_FILE_INIT WEB_FILE_CHUNK WEB_FILE_FINALIZE WEB_FILE_DELETE WEB_RELEASE_PUBLISH WEB_RELEASE_ACTIVATE WEB_ALIAS_SET'
).split(' ');

/** A count from a list read with limit 1, or null when the read is refused (a fork not active yet). */
async function countOf(client, id, params, field) {
  try {
    const r = await client.read(id, params, { limit: 1 });
    return r[field];
  } catch {
    return null;
  }
}

/**
 * The links of an address to its other pages; how many there are behind each is read on demand
 * (a button): eleven reads would be a fifth of an anonymous visitor's quota for a minute.
 */
function related(client, a) {
  const items = [
    ['Posts', `posts/${a}`, 'getApiSocialAuthorAddressPosts', { address: a }],
    ['Follows', `follows/${a}`, 'getApiSocialSubscriptionsSubscriber', { subscriber: a }],
    ['Followers', `followers/${a}`, 'getApiSocialFollowersAddress', { address: a }],
    ['Funded likes queued for this author', `queue/${a}`, 'getApiSocialQueueAuthor', { author: a }],
    ['Direct messages (metadata)', `dms/${a}`, 'getApiSocialDmsAddress', { address: a }],
    ['Art NFTs owned', `gallery/art?owner=${a}`, 'getApiNftOwnerAddress', { address: a }],
    ['Image NFTs owned', `gallery/image?owner=${a}`, 'getApiImageOwnerAddress', { address: a }],
    ['Audio NFTs owned', `gallery/audio?owner=${a}`, 'getApiAudioOwnerAddress', { address: a }],
    // The agent lists count only the page they answer: a read of one tells none from some.
    ['Agent runs submitted', `runs/?submitter=${a}`, 'getApiAgentV6BySubmitterAddress', { address: a }, true],
    ['Agent runs served as miner', `runs/?miner=${a}`, 'getApiAgentV6ByMinerAddress', { address: a }, true],
    ['Conversations', `conversations/${a}`, 'getApiAgentV6ChatByAuthorAddress', { address: a }, true],
  ];
  const shown = (n, some) => (n === null ? '(not active)' : some ? (n ? '' : '(none)') : `(${n.toLocaleString('en-US')})`);
  const marks = items.map(() => el('span', { class: 'muted' }));
  const button = el('button', { type: 'button', class: 'count-links' }, 'Count them');
  button.addEventListener('click', async () => {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    const counts = await Promise.all(items.map(([, , id, params]) => countOf(client, id, params, 'count')));
    counts.forEach((n, i) => {
      marks[i].textContent = shown(n, items[i][4]);
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

/**
 * The filters a query asks for (those the node reads: type, direction, since, until). The dates
 * are whole UTC days of the block's time, as Etherscan and Blockscout filter.
 */
function filtersOf(query) {
  const f = {};
  const type = query.get('type');
  if (type && /^[A-Z0-9_]{2,40}$/.test(type)) f.type = type;
  const direction = query.get('direction');
  if (direction === 'in' || direction === 'out') f.direction = direction;
  for (const [name, end] of [
    ['since', 'T00:00:00Z'],
    ['until', 'T23:59:59.999Z'],
  ]) {
    const d = query.get(name);
    if (d && /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}${end}`))) f[name] = Date.parse(`${d}${end}`);
  }
  return f;
}

/** The filter form (a GET of the page with its query) and the CSV of what it shows. */
function filterForm(a, query, f, types) {
  const id = (n) => `filter-${n}`;
  const form = el(
    'form',
    { class: 'filters', 'aria-label': 'Filter the transactions' },
    el('label', { for: id('type') }, 'Type '),
    el('select', { id: id('type'), name: 'type' }, el('option', { value: '' }, 'any'), ...types.map((t) => el('option', { value: t }, t))),
    el('label', { for: id('direction') }, 'Direction '),
    el(
      'select',
      { id: id('direction'), name: 'direction' },
      ...['any', 'in', 'out'].map((d) => el('option', { value: d === 'any' ? '' : d }, d)),
    ),
    el('label', { for: id('since') }, 'From '),
    el('input', { id: id('since'), name: 'since', type: 'date', value: query.get('since') ?? '' }),
    el('label', { for: id('until') }, 'to '),
    el('input', { id: id('until'), name: 'until', type: 'date', value: query.get('until') ?? '' }),
    el('button', { type: 'submit' }, 'Filter'),
    el(
      'p',
      { class: 'muted', id: id('note') },
      "Dates are UTC days of the block's time: when the chain recorded the transaction, not when it was signed.",
    ),
  );
  form.elements.type.value = f.type ?? '';
  form.elements.direction.value = f.direction ?? '';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    for (const n of ['type', 'direction', 'since', 'until']) if (form.elements[n].value) q.set(n, form.elements[n].value);
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

export async function addressPage(client, arg) {
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
