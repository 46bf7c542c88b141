// The chain's own pages: blocks (list and one block, with previous/next and confirmations),
// transactions (status, confirmations, every field decoded with its unit), the mempool and the
// top accounts. Each answers an element, or null when the thing does not exist.
import type { OmbraClient } from '../../client/browser.ts';
import type { AnyTx } from './chainEvents.ts';
import { type Child, el } from './dom.ts';
import { counterparty, fieldView, movedValue } from './fields.ts';
import { addr, ageCell, amount, badge, dataTable, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { liveList, liveMempool } from './liveList.ts';
import { pagedTable, splitArg } from './paging.ts';
import { plural } from './text.ts';

const HASH = /^[0-9a-fA-F]{64}$/;

/** "12 confirmations" from a block height and the head's. */
const confirmations = (index: number, head: number) => plural(Math.max(0, head - index) + 1, 'confirmation');

/**
 * The transactions with each like's post author looked up (`postAuthor`), so lists show whose
 * post a SOCIAL_REACTION_SET liked: one read per distinct post.
 */
export async function withPostAuthors<T extends AnyTx>(client: OmbraClient, txs: readonly T[]): Promise<T[]> {
  const ids = [
    ...new Set(txs.flatMap((t) => (t.type === 'SOCIAL_REACTION_SET' && typeof t.targetPostId === 'string' ? [t.targetPostId] : []))),
  ];
  const posts = await Promise.all(ids.map((postId) => client.find('getApiSocialPostPostId', { postId }).catch(() => null)));
  const author = new Map(ids.map((id, i) => [id, posts[i]?.author]));
  return txs.map((t) => {
    const postAuthor = t.type === 'SOCIAL_REACTION_SET' && typeof t.targetPostId === 'string' ? author.get(t.targetPostId) : undefined;
    return postAuthor ? { ...t, postAuthor } : t;
  });
}

/** The transactions of a block or a list: hash, type, from, counterparty, value, fee. */
export function txRows(txs: readonly AnyTx[], address?: string): Child[][] {
  return txs.map((t) => [
    idLink(`tx/${String(t.hash)}`, t.hash),
    badge(t.type),
    addr(t.from),
    counterparty(t, address),
    movedValue(t, address),
    t.fee === undefined ? none() : amount(t.fee),
  ]);
}

export async function blockPage(client: OmbraClient, arg: string) {
  const [id] = splitArg(arg);
  const [b, head] = await Promise.all([
    HASH.test(id) ? client.blockByHash(id.toLowerCase()) : /^[0-9]{1,15}$/.test(id) ? client.block(Number(id)) : null,
    client.height(),
  ]);
  if (!b) return null;
  const nav = el(
    'nav',
    { class: 'prevnext', 'aria-label': 'Neighbouring blocks' },
    b.index > 0
      ? el('a', { href: `#/block/${b.index - 1}`, rel: 'prev' }, `‹ Block #${b.index - 1}`)
      : el('span', { class: 'muted' }, 'Genesis'),
    el('a', { href: '#/blocks' }, 'All blocks'),
    b.index < head.height
      ? el('a', { href: `#/block/${b.index + 1}`, rel: 'next' }, `Block #${b.index + 1} ›`)
      : el('span', { class: 'muted' }, 'Head'),
  );
  return pageOf(
    `Block #${b.index}`,
    nav,
    section(
      'Overview',
      fields('Block header', [
        ['Height', String(b.index)],
        ['Confirmations', confirmations(b.index, head.height)],
        ['Time', utc(b.timestamp)],
        ['Transactions', plural(b.transactions.length, 'transaction')],
        ['Hash', fullId(b.hash, null, 'block hash')],
        ['Parent hash', fullId(b.previousHash, b.index > 0 ? `block/${b.index - 1}` : null, 'parent hash')],
        ['Proposer', fullId(b.proposer, `address/${b.proposer}`, 'proposer address')],
        ['Transaction root', fullId(b.txRoot, null, 'transaction root')],
        ['State root', fullId(b.stateRoot, null, 'state root')],
        ['Burned', amount(b.tokensBurned)],
        ['Inference tokens consumed', `${BigInt(b.tokensConsumed).toLocaleString('en-US')} tokens`],
        [
          'Attestations',
          el(
            'ul',
            { class: 'plain' },
            ...b.attestations.map((a) => el('li', {}, fullId(a.validatorAddress, `address/${a.validatorAddress}`, 'validator address'))),
          ),
        ],
      ]),
    ),
    section(
      `Transactions (${b.transactions.length})`,
      b.transactions.length ? el('p', {}, el('a', { href: `/api/csv/block/${b.index}`, download: '' }, 'Download as CSV')) : null,
      dataTable(
        'Transactions of the block',
        ['hash', 'type', 'from', 'to / about', 'value', 'fee'],
        txRows(b.transactions),
        'No transactions in this block.',
      ),
    ),
  );
}

export async function blocksPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  const page = pageOf(
    'Blocks',
    section(
      'Latest blocks',
      await pagedTable({
        caption: 'Blocks, newest first',
        base: 'blocks',
        query,
        load: async (p) => {
          const r = await client.blocks(p);
          return { items: r.blocks, total: r.total };
        },
        head: ['height', 'hash', 'transactions', 'proposer', 'age'],
        row: (b) => [
          el('a', { href: `#/block/${b.index}` }, `#${b.index}`),
          idLink(`block/${b.index}`, b.hash),
          String(b.txCount),
          addr(b.proposer),
          ageCell(b.timestamp),
        ],
      }),
    ),
  );
  return liveList(page, arg, () => 1, 'block');
}

/**
 * Every transaction of the chain, newest first, paged through all of history: the node's global
 * index (GET /api/chain/txs) answers any page with one short read, however deep.
 */
export async function txsPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  const page = pageOf(
    'Transactions',
    section(
      'All transactions, newest first',
      await pagedTable({
        caption: 'Transactions, newest first',
        base: 'txs',
        query,
        load: async (p) => {
          const r = await client.read('getApiChainTxs', {}, p);
          return { items: await withPostAuthors(client, r.txs), total: r.total };
        },
        head: ['hash', 'type', 'block', 'age', 'from', 'to / about', 'value', 'fee'],
        row: (t) => {
          const [hash, type, from, other, value, fee] = txRows([t])[0];
          return [
            hash,
            type,
            el('a', { href: `#/block/${t.blockHeight}` }, `#${t.blockHeight}`),
            ageCell(t.blockTime),
            from,
            other,
            value,
            fee,
          ];
        },
        empty: 'No transactions yet.',
      }),
    ),
  );
  return liveList(page, arg, (b) => b.transactions.length, 'transaction');
}

/** Placement fields of a confirmed transaction: shown in the overview, not among the signed fields. */
const PLACEMENT = new Set(['status', 'blockIndex', 'blockHeight', 'blockHash', 'position']);

export async function txPage(client: OmbraClient, arg: string) {
  const [hash] = splitArg(arg);
  if (!HASH.test(hash)) return null;
  const [found, head] = await Promise.all([client.tx(hash.toLowerCase()), client.height()]);
  if (!found) return null;
  const [t] = await withPostAuthors(client, [found]);
  const confirmed = t.status === 'confirmed';
  // A BURN signs its own blockIndex: the placement is blockHeight (docs/protocol.md).
  const signed = Object.entries(found).filter(([k]) => !PLACEMENT.has(k) || (k === 'blockIndex' && t.type === 'BURN'));
  return pageOf(
    ['Transaction ', el('span', { class: 'mono id' }, t.hash)],
    section(
      'Overview',
      fields('Transaction overview', [
        ['Hash', fieldView('hash', t.hash)],
        ['Status', badge(t.status)],
        ['Type', badge(t.type)],
        confirmed && ['Block', el('a', { href: `#/block/${t.blockHeight}` }, `#${t.blockHeight}`)],
        confirmed && ['Confirmations', confirmations(t.blockHeight, head.height)],
        confirmed && ['Position in block', String(t.position)],
        ['Time (signed)', utc(t.timestamp)],
        ['From', fullId(t.from, `address/${t.from}`, 'sender address')],
        ['To / about', t.postAuthor ? ['the author of the liked post: ', counterparty(t)] : counterparty(t)],
        ['Value', movedValue(t)],
        ['Fee', t.fee === undefined ? 'none' : amount(t.fee)],
      ]),
    ),
    section(
      'Decoded fields',
      fields(
        'Signed fields in canonical order',
        signed.map(([k, v]) => [k, fieldView(k, v, t)]),
      ),
    ),
    el('details', { class: 'card raw' }, el('summary', {}, 'Raw JSON'), el('pre', { tabindex: '0' }, JSON.stringify(t, null, 2))),
  );
}

export async function mempoolPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  const page = pageOf(
    'Mempool',
    section(
      'Pending transactions, oldest first',
      await pagedTable({
        caption: 'Pending transactions',
        base: 'mempool',
        query,
        load: async (p) => {
          const r = await client.mempool(p);
          return { items: r.pending, total: r.total };
        },
        head: ['hash', 'type', 'from', 'to', 'amount', 'fee', 'nonce'],
        row: (t) => [
          idLink(`tx/${t.hash}`, t.hash),
          badge(t.type),
          addr(t.from),
          addr(t.to),
          t.amount ? amount(t.amount) : none(),
          t.fee ? amount(t.fee) : none(),
          String(t.nonce),
        ],
        empty: 'The mempool is empty.',
      }),
    ),
  );
  return liveMempool(page);
}

export async function accountsPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  return pageOf(
    'Top accounts',
    section(
      'Accounts by balance',
      await pagedTable({
        caption: 'Accounts by balance',
        base: 'accounts',
        query,
        load: async (p) => {
          const r = await client.read('getApiTokenomicsHolders', {}, p);
          return { items: r.holders, total: r.totalHolders };
        },
        head: ['address', 'balance', 'share of supply'],
        row: (h) => [addr(h.address), amount(h.balance), `${Number(h.percentage).toFixed(4)} %`],
      }),
    ),
  );
}
