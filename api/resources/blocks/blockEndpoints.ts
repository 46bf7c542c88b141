/**
 * The definitions of the blocks resource: blocks, transactions and the mempool under /api/chain
 * and /api/mempool (served by ./blockRoutes.ts, one handler per definition).
 */
import { endpoints } from '../../endpoints/endpoint.ts';
import { EXAMPLE_IDS, EXAMPLE_TRANSFER } from '../../endpoints/examples.ts';
import { cursor, hashParam, lazy, limit, offset, paging } from '../../endpoints/params.ts';
import { arr, either, hash, lit, nullable, obj, str, txWith, uint } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';

const TX_FORMS = {
  schema: {
    anyOf: [ref('Tx'), obj({ tx: { type: 'object', description: 'the transaction without hash and signature' }, signature: str })],
  },
  description: 'a signed transaction (any type, see the Tx_* schemas), or the older `{tx, signature}` form whose hash the node computes',
  example: EXAMPLE_TRANSFER,
};
const SUBMIT_ERRORS = [403, 409, 413, 422, 503];
/** Most blocks in one `blocks-full` range. */
export const MAX_FULL_RANGE = 500;
/** Most blocks in one `blocks?from=&to=` range. */
export const MAX_BLOCKS_RANGE = 100;
const BLOCK_PAGE = paging(100);

/** Block, transaction and mempool routes. */
export const BLOCK_ENDPOINTS = endpoints({
  getApiChainGenesis: {
    method: 'GET',
    path: '/api/chain/genesis',
    tag: 'blocks',
    summary: 'Block 0',
    ok: { schema: ref('Block') },
  },
  getApiChainBlockHashHash: {
    method: 'GET',
    path: '/api/chain/block/hash/:hash',
    tag: 'blocks',
    summary: 'A block by hash',
    params: { hash: hashParam('block hash', 'hash', EXAMPLE_IDS.block) },
    ok: { schema: ref('Block') },
    errors: [404],
  },
  getApiChainBlockLatest: {
    method: 'GET',
    path: '/api/chain/block/latest',
    tag: 'blocks',
    summary: 'The head block',
    ok: { schema: ref('Block') },
  },
  getApiChainBlockIndex: {
    method: 'GET',
    path: '/api/chain/block/:index',
    tag: 'blocks',
    summary: 'A block by height',
    params: { index: { schema: { type: 'string', pattern: '^-?[0-9]+$' }, description: 'height (outside 0..head: 404)', example: '1' } },
    ok: { schema: ref('Block') },
    errors: [404],
  },
  getApiChainBlocks: {
    method: 'GET',
    path: '/api/chain/blocks',
    tag: 'blocks',
    summary: `Block summaries newest first; with from/to, up to ${MAX_BLOCKS_RANGE} full blocks and 16 MiB (then \`next\`)`,
    query: {
      limit: lazy(BLOCK_PAGE.limit),
      offset: lazy(BLOCK_PAGE.offset),
      from: { schema: uint, description: 'first height of a range of full blocks', example: 1 },
      to: { schema: uint, description: 'last height of a range of full blocks', example: 10 },
    },
    ok: { schema: either(obj({ blocks: arr(ref('BlockSummary')), total: uint }), ref('BlockRange')) },
  },
  getApiChainBlockTimes: {
    method: 'GET',
    path: '/api/chain/block-times',
    tag: 'blocks',
    summary:
      'The summaries of the latest `count` blocks, oldest first: what a live chart of transactions and block times needs, without the blocks',
    query: { count: { ...limit(1000, 240), description: 'how many of the latest blocks (1-1000, default 240)', example: 240 } },
    ok: { schema: obj({ blocks: arr(ref('BlockSummary')), height: uint }) },
  },
  getApiChainBlocksFull: {
    method: 'GET',
    path: '/api/chain/blocks-full',
    tag: 'blocks',
    summary: `Full blocks from..to, at most ${MAX_FULL_RANGE} and 16 MiB of blocks (then \`next\`: the height to ask from), streamed`,
    query: {
      from: { schema: uint, description: 'first height', example: 1 },
      to: { schema: uint, description: 'last height', example: 10 },
    },
    ok: { schema: ref('BlockRange') },
  },
  postApiChainTx: {
    method: 'POST',
    path: '/api/chain/tx',
    tag: 'transactions',
    summary: 'Submit a signed transaction',
    body: TX_FORMS,
    ok: {
      schema: obj({ ok: { const: true }, hash, txHash: hash }, ['txHash']),
      description: '`txHash` too for the `{tx, signature}` form',
    },
    errors: SUBMIT_ERRORS,
  },
  getApiChainTxHash: {
    method: 'GET',
    path: '/api/chain/tx/:hash',
    tag: 'transactions',
    summary: 'A transaction, confirmed (with its block) or pending',
    params: { hash: hashParam('transaction hash') },
    ok: {
      schema: either(
        txWith({ blockIndex: uint, blockHeight: uint, blockHash: hash, position: uint, status: lit('confirmed') }),
        txWith({ status: lit('pending') }),
      ),
    },
    errors: [404],
  },
  getApiChainTxs: {
    method: 'GET',
    path: '/api/chain/txs',
    tag: 'transactions',
    summary: 'Every transaction of the chain, newest first',
    description:
      'All of history, paged: `offset` counts from the newest transaction, or `cursor` (not both) continues from the ' +
      '`nextCursor` an earlier page answered, which does not shift as new blocks arrive. Any page costs the same, however ' +
      "deep. `nextCursor` is null after the oldest transaction; `count` is the page's length, `total` every confirmed " +
      'transaction. Each carries `blockTime`, the time its block recorded.',
    // In the order they are checked.
    query: { offset, cursor: cursor('the `nextCursor` of the previous page'), limit: limit(100, 25) },
    ok: {
      schema: obj({ count: uint, total: uint, txs: arr(ref('ListedTx')), nextCursor: nullable({ type: 'string', pattern: '^[0-9]+$' }) }),
    },
  },
  getApiChainMempool: {
    method: 'GET',
    path: '/api/chain/mempool',
    tag: 'mempool',
    summary: 'Pending transactions, oldest first (as /api/mempool)',
    query: paging(100),
    ok: { schema: ref('MempoolPage') },
  },
  getApiMempool: {
    method: 'GET',
    path: '/api/mempool',
    tag: 'mempool',
    summary: 'Pending transactions, oldest first',
    query: paging(100),
    ok: { schema: ref('MempoolPage') },
  },
});
