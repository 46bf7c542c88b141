// The transaction pages: one transaction (status, confirmations, every field decoded with its
// unit) and every transaction of the chain, and the transaction rows other pages list (a
// block's, an address's). A page answers an element, or null when the transaction does not exist.
import type { OmbraClient } from '../../client/browser.ts';
import type { AnyTx } from './chainEvents.ts';
import { type Child, el } from './dom.ts';
import { counterparty, fieldView, movedValue } from './fields.ts';
import { addr, ageCell, amount, badge, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { liveList } from './liveList.ts';
import { pagedTable, splitArg } from './paging.ts';
import { plural } from './text.ts';

/** A block or transaction hash as a page's argument. */
export const HASH = /^[0-9a-fA-F]{64}$/;

/** "12 confirmations" from a block height and the head's. */
export const confirmations = (index: number, head: number) => plural(Math.max(0, head - index) + 1, 'confirmation');

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
