/** The definitions of the ledger resource: balances, supply, holders, the older address and stats routes (served by ./ledgerRoutes.ts). */
import { TX_FILTERS } from '../exports/exportEndpoints.ts';
import { endpoints } from '../../endpoints/endpoint.ts';
import { addressParam, cursor, limit, offset, paging } from '../../endpoints/params.ts';
import { address, arr, big, nullable, num, obj, str, uint } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';

const supplyOf = (extra: string[]) =>
  obj(Object.fromEntries(['totalEmitted', 'circulating', ...extra].map((k) => [k, k === 'blocksProduced' ? uint : big])));

/** Balance, supply and stats routes. */
export const LEDGER_ENDPOINTS = endpoints({
  getApiWalletBalanceAddress: {
    method: 'GET',
    path: '/api/wallet/balance/:address',
    tag: 'wallet',
    summary: 'Balance with storage capacity',
    params: { address: addressParam() },
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
  getApiTokenomicsSupply: {
    method: 'GET',
    path: '/api/tokenomics/supply',
    tag: 'supply',
    summary: 'Supply',
    description: "`rewardPerBlock` is what the next block mints, the same figure as GET /api/chain/params' `blockReward`",
    ok: { schema: supplyOf(['blocksProduced', 'rewardPerBlock']) },
  },
  getApiTokenomicsHolders: {
    method: 'GET',
    path: '/api/tokenomics/holders',
    tag: 'supply',
    summary: 'Top holders',
    query: paging(100),
    ok: { schema: obj({ totalHolders: uint, totalSupply: big, holders: arr(obj({ address, balance: big, percentage: num })) }) },
  },
  getApiTokenomicsDistribution: {
    method: 'GET',
    path: '/api/tokenomics/distribution',
    tag: 'supply',
    summary: 'Holders by balance bucket',
    ok: { schema: obj({ buckets: arr(obj({ range: str, count: uint })) }) },
  },
  getApiAddressAddr: {
    method: 'GET',
    path: '/api/address/:addr',
    tag: 'wallet',
    summary: 'Balance and nonce (older route)',
    params: { addr: addressParam() },
    ok: { schema: ref('AddressBrief') },
  },
  getApiAddressAddrBalance: {
    method: 'GET',
    path: '/api/address/:addr/balance',
    tag: 'wallet',
    summary: 'Balance (older route)',
    params: { addr: addressParam() },
    ok: { schema: obj({ address, balance: big }) },
  },
  getApiAddressAddrTxs: {
    method: 'GET',
    path: '/api/address/:addr/txs',
    tag: 'wallet',
    summary: "An address's transactions, newest first (older route)",
    description:
      'Any page costs the same, however deep: `offset` counts from the newest transaction, or `cursor` (not both) continues ' +
      'from the `nextCursor` an earlier page answered, which does not shift as new transactions arrive. `nextCursor` is null ' +
      "after the oldest transaction. `count` is the page's length, `total` all the address's transactions. With a filter " +
      '(`type`, `direction`, `since`, `until`: as the CSV export, /api/csv/address/{addr}) the page is of the matching ' +
      "transactions among the address's newest 10,000, `total` counts those, and there is no cursor.",
    params: { addr: addressParam() },
    // In the order they are checked.
    query: { offset, cursor: cursor('the `nextCursor` of the previous page'), limit: limit(100), ...TX_FILTERS },
    ok: {
      schema: obj({
        address,
        count: uint,
        total: uint,
        txs: arr(ref('ListedTx')),
        nextCursor: nullable({ type: 'string', pattern: '^[0-9]+$' }),
      }),
    },
  },
  getApiStatsTps: {
    method: 'GET',
    path: '/api/stats/tps',
    tag: 'supply',
    summary: 'Transactions per second: average over the last 100 blocks, peak',
    ok: { schema: obj({ average: num, peak: num, peakBlock: nullable(uint), blocks: uint, transactions: uint, seconds: num }) },
  },
  getApiStatsValidators: {
    method: 'GET',
    path: '/api/stats/validators',
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
  getApiStatsSupply: {
    method: 'GET',
    path: '/api/stats/supply',
    tag: 'supply',
    summary: 'Supply summary (older route)',
    ok: { schema: supplyOf(['totalSupply', 'totalBurned', 'escrow', 'feesPaid', 'blocksProduced', 'rewardPerBlock']) },
  },
});
