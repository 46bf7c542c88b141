// The chain's own pages: blocks (list and one block, with previous/next and confirmations), the
// mempool and the top accounts; the transaction pages are ./txPages.ts. Each answers an element,
// or null when the thing does not exist.
import type { OmbraClient } from '../../client/browser.ts';
import { el } from './dom.ts';
import { addr, ageCell, amount, badge, dataTable, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { liveList, liveMempool } from './liveList.ts';
import { pagedTable, splitArg } from './paging.ts';
import { plural } from './text.ts';
import { confirmations, HASH, txRows } from './txPages.ts';

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
