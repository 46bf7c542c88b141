/** The catalog of the chain, transaction, mempool, wallet, supply and stream routes. */
import { addressParam, hashParam, paging, type RouteCatalog } from './routeDoc.ts';
import { address, arr, big, bool, hash, ms, nullable, num, obj, oneOf, ref, str, txWith, uint } from './shapes.ts';

const TX_FORMS = {
  schema: {
    anyOf: [ref('Tx'), obj({ tx: { type: 'object', description: 'the transaction without hash and signature' }, signature: str })],
  },
  description: 'a signed transaction (any type, see the Tx_* schemas), or the older `{tx, signature}` form whose hash the node computes',
};
const SUBMIT_ERRORS = [403, 409, 413, 422, 503];
const supplyOf = (extra: string[]) =>
  obj(Object.fromEntries(['totalEmitted', 'circulating', ...extra].map((k) => [k, k === 'blocksProduced' ? uint : big])));

/** Chain routes. */
export const CHAIN_ROUTES: RouteCatalog = {
  'GET /api/health': {
    tag: 'chain',
    summary: 'Liveness: status, height, peers, syncing',
    description: 'Answers 503 `{status: "degraded", reason}` instead while block production or import keeps failing (3 failures in a row).',
    ok: { schema: obj({ status: oneOf('ok'), height: uint, peers: uint, syncing: bool }) },
  },
  'GET /api/chain/stats': {
    tag: 'chain',
    summary: 'Chain statistics over recent blocks',
    ok: {
      schema: obj({
        height: uint,
        latestBlockHash: hash,
        totalMiners: uint,
        recentTxCount: uint,
        recentRewards: big,
        activeProposers: uint,
        p2pPeers: uint,
      }),
    },
  },
  'GET /api/chain/height': {
    tag: 'chain',
    summary: 'The head',
    ok: { schema: obj({ height: uint, latestBlock: obj({ index: uint, hash, timestamp: ms }) }) },
  },
  'GET /api/chain/account/:address': {
    tag: 'chain',
    summary: 'Balance, nonce, the nonce a new transaction should carry, miner record, the 50 most recent transactions',
    params: { address: addressParam },
    ok: {
      schema: obj(
        {
          address,
          balance: big,
          nonce: uint,
          nextNonce: uint,
          isMiner: bool,
          miner: ref('MinerDetail'),
          recentTxs: arr(ref('ConfirmedTx')),
        },
        ['miner'],
      ),
    },
  },
  'GET /api/chain/params': {
    tag: 'chain',
    summary: 'What wallets need to build transactions: chain id, authorities, fork heights',
    ok: {
      schema: obj({
        chainId: str,
        blockTimeMs: uint,
        authorities: arr(address),
        blockReward: { ...big, description: "what the next block mints: the supply's rewardPerBlock (0 from fork 2 on)" },
        forks: { type: 'object', additionalProperties: uint, description: 'activation height of forks 2..6, and of fork 7 when scheduled' },
        nextHeight: uint,
      }),
    },
  },
  'GET /api/chain/network': {
    tag: 'network',
    summary: "This node's peer id and the multiaddrs other nodes pass to --peer",
    ok: { schema: obj({ peerId: nullable(str), addresses: arr(str) }) },
  },
  'GET /api/chain/peers': {
    tag: 'network',
    summary: 'Connected peers',
    ok: { schema: obj({ peerId: nullable(str), count: uint, peers: arr(obj({ peerId: str, addresses: arr(str) })) }) },
  },
  'GET /api/chain/evidence': {
    tag: 'network',
    summary: 'Equivocation evidence: two blocks for one slot, both attested by its authority (the second is never built upon)',
    ok: {
      schema: obj({
        count: uint,
        evidence: arr(
          obj({
            proposer: address,
            slot: uint,
            height: uint,
            first: obj({ index: uint, hash, previousHash: hash, timestamp: ms, proposer: address }),
            second: obj({ index: uint, hash, previousHash: hash, timestamp: ms, proposer: address }),
            seenAt: ms,
          }),
        ),
      }),
    },
  },
  'GET /api/chain/search/:q': {
    tag: 'chain',
    summary: 'Search by height, block or transaction hash, or (partial) address',
    params: {
      q: { schema: { type: 'string', minLength: 1, maxLength: 128 }, description: 'a height, a 64-hex hash, or an address or its prefix' },
    },
    ok: {
      schema: arr({
        oneOf: [
          obj({ type: { const: 'block' }, data: ref('BlockSummary') }),
          obj({ type: { const: 'tx' }, data: ref('ConfirmedTx') }),
          obj({ type: { const: 'address' }, data: ref('AddressBrief') }),
        ],
      }),
    },
  },
  'GET /api/chain/genesis': { tag: 'blocks', summary: 'Block 0', ok: { schema: ref('Block') } },
  'GET /api/chain/block/hash/:hash': {
    tag: 'blocks',
    summary: 'A block by hash',
    params: { hash: hashParam('block hash') },
    ok: { schema: ref('Block') },
    errors: [404],
  },
  'GET /api/chain/block/latest': {
    tag: 'blocks',
    summary: 'The head block',
    ok: { schema: ref('Block') },
  },
  'GET /api/chain/block/:index': {
    tag: 'blocks',
    summary: 'A block by height',
    params: { index: { schema: { type: 'string', pattern: '^-?[0-9]+$' }, description: 'height (outside 0..head: 404)' } },
    ok: { schema: ref('Block') },
    errors: [404],
  },
  'GET /api/chain/blocks': {
    tag: 'blocks',
    summary: 'Block summaries newest first; with from/to, up to 100 full blocks and 16 MiB (then `next`)',
    query: {
      ...paging(100),
      from: { schema: uint, description: 'first height of a range of full blocks' },
      to: { schema: uint, description: 'last height of a range of full blocks' },
    },
    ok: { schema: { oneOf: [obj({ blocks: arr(ref('BlockSummary')), total: uint }), ref('BlockRange')] } },
  },
  'GET /api/chain/blocks-full': {
    tag: 'blocks',
    summary: 'Full blocks from..to, at most 500 and 16 MiB of blocks (then `next`: the height to ask from), streamed',
    query: { from: { schema: uint, description: 'first height' }, to: { schema: uint, description: 'last height' } },
    ok: { schema: ref('BlockRange') },
  },
  'POST /api/chain/tx': {
    tag: 'transactions',
    summary: 'Submit a signed transaction',
    body: TX_FORMS,
    ok: {
      schema: obj({ ok: { const: true }, hash, txHash: hash }, ['txHash']),
      description: '`txHash` too for the `{tx, signature}` form',
    },
    errors: SUBMIT_ERRORS,
  },
  'GET /api/chain/tx/:hash': {
    tag: 'transactions',
    summary: 'A transaction, confirmed (with its block) or pending',
    params: { hash: hashParam('transaction hash') },
    ok: {
      schema: {
        oneOf: [
          txWith({ blockIndex: uint, blockHeight: uint, blockHash: hash, position: uint, status: { const: 'confirmed' } }),
          txWith({ status: { const: 'pending' } }),
        ],
      },
    },
    errors: [404],
  },
  'GET /api/chain/mempool': {
    tag: 'mempool',
    summary: 'Pending transactions, oldest first (as /api/mempool)',
    query: paging(100),
    ok: { schema: ref('MempoolPage') },
  },
  'GET /api/mempool': {
    tag: 'mempool',
    summary: 'Pending transactions, oldest first',
    query: paging(100),
    ok: { schema: ref('MempoolPage') },
  },
  'GET /api/wallet/balance/:address': {
    tag: 'wallet',
    summary: 'Balance with storage capacity',
    params: { address: addressParam },
    ok: {
      schema: obj({
        address,
        balance: big,
        balanceOmbra: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' },
        nonce: uint,
        storageCapacity: big,
        storageUsed: big,
        storageFree: big,
      }),
    },
  },
  'GET /api/tokenomics/supply': { tag: 'supply', summary: 'Supply', ok: { schema: supplyOf(['blocksProduced', 'rewardPerBlock']) } },
  'GET /api/tokenomics/holders': {
    tag: 'supply',
    summary: 'Top holders',
    query: paging(100),
    ok: { schema: obj({ totalHolders: uint, totalSupply: big, holders: arr(obj({ address, balance: big, percentage: num })) }) },
  },
  'GET /api/tokenomics/distribution': {
    tag: 'supply',
    summary: 'Holders by balance bucket',
    ok: { schema: obj({ buckets: arr(obj({ range: str, count: uint })) }) },
  },
  'GET /api/address/:addr': {
    tag: 'wallet',
    summary: 'Balance and nonce (older route)',
    params: { addr: addressParam },
    ok: { schema: ref('AddressBrief') },
  },
  'GET /api/address/:addr/balance': {
    tag: 'wallet',
    summary: 'Balance (older route)',
    params: { addr: addressParam },
    ok: { schema: obj({ address, balance: big }) },
  },
  'GET /api/address/:addr/txs': {
    tag: 'wallet',
    summary: "An address's transactions, newest first (older route)",
    description:
      'Any page costs the same, however deep: `offset` counts from the newest transaction, or `cursor` (not both) continues ' +
      'from the `nextCursor` an earlier page answered, which does not shift as new transactions arrive. `nextCursor` is null ' +
      'after the oldest transaction.',
    params: { addr: addressParam },
    query: {
      ...paging(100),
      cursor: { schema: { type: 'string', pattern: '^[0-9]{1,15}$' }, description: 'the `nextCursor` of the previous page' },
    },
    ok: {
      schema: obj({
        address,
        count: uint,
        txs: arr(ref('ConfirmedTx')),
        nextCursor: nullable({ type: 'string', pattern: '^[0-9]+$' }),
      }),
    },
  },
  'GET /api/stats/tps': {
    tag: 'supply',
    summary: 'Transactions per second: average over the last 100 blocks, peak',
    ok: { schema: obj({ average: num, peak: num, peakBlock: nullable(uint), blocks: uint, transactions: uint, seconds: num }) },
  },
  'GET /api/stats/validators': {
    tag: 'network',
    summary: 'Blocks proposed and slots missed per authority over the last 1,000 blocks',
    ok: {
      schema: obj({
        blocks: uint,
        fromSlot: nullable(uint),
        toSlot: nullable(uint),
        validators: arr(obj({ address, proposed: uint, missed: uint })),
      }),
    },
  },
  'GET /api/stats/supply': {
    tag: 'supply',
    summary: 'Supply summary (older route)',
    ok: { schema: supplyOf(['totalSupply', 'totalBurned', 'escrow', 'feesPaid', 'blocksProduced', 'rewardPerBlock']) },
  },
  'GET /api/chain/events': {
    tag: 'streams',
    summary: 'Live chain events (SSE): hello, block, tx, reorg, ping; resumable',
    description:
      'Server-sent events. Resume with `Last-Event-ID: H` (what EventSource sends) or `?fromHeight=N`: missed blocks are replayed from the log, then live, with no gap and no repeat.',
    query: { fromHeight: { schema: uint, description: 'first height wanted (at most 10,000 behind the head)' } },
    headers: { 'Last-Event-ID': { schema: str, description: 'the last height received; wins over fromHeight' } },
    ok: { contentType: 'text/event-stream', description: 'an endless event stream' },
    errors: [429],
  },
  'GET /api/mempool/events': {
    tag: 'streams',
    summary: 'Mempool size (SSE): hello, then a snapshot every 3 s',
    ok: { contentType: 'text/event-stream', description: 'an endless event stream' },
    errors: [429],
  },
};
