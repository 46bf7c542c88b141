/**
 * The ledger resource's router: every definition of ./ledgerEndpoints.ts served by its handler.
 * Wallet balances, tokenomics (supply, holders, distribution), the older address routes
 * (/api/address/:addr, /balance, /txs) and the older stats routes (tps, validators, supply).
 */
import type { Hono } from 'hono';
import type { ListedTx } from '../../../core/confirmedTx.ts';
import { ChainError } from '../../../core/errors.ts';
import type { ApiDeps } from '../../context.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { filteredTxs, filtering } from '../exports/exportRoutes.ts';
import { LEDGER_ENDPOINTS as E } from './ledgerEndpoints.ts';

/** The ledger resource. */
export function ledgerRoutes({ queries }: ApiDeps): Hono {
  return resource(E, {
    getApiWalletBalanceAddress: async (c, { params }) => c.json(await queries.chain.walletRecord(params.address)),

    getApiTokenomicsSupply: (c) => {
      const s = queries.chain.supply();
      return c.json({
        totalEmitted: s.totalEmitted,
        circulating: s.circulating,
        blocksProduced: s.blocksProduced,
        rewardPerBlock: s.rewardPerBlock,
      });
    },
    getApiTokenomicsHolders: async (c, { query: { limit, offset } }) => c.json(await queries.chain.holders(limit, offset)),
    getApiTokenomicsDistribution: (c) => c.json(queries.chain.distribution()),

    getApiAddressAddr: async (c, { params: { addr: address } }) => {
      const a = await queries.chain.account(address);
      return c.json({ address, balance: a.balance.toString(), nonce: a.nonce });
    },
    getApiAddressAddrBalance: async (c, { params: { addr: address } }) =>
      c.json({ address, balance: (await queries.chain.account(address)).balance.toString() }),
    getApiAddressAddrTxs: async (c, { params: { addr: address }, query: { offset, cursor, limit, ...filter } }) => {
      if (cursor !== undefined && offset > 0) throw new ChainError('INVALID_PARAMS', 'give offset or cursor, not both');
      if (filtering(filter)) {
        if (cursor !== undefined) throw new ChainError('INVALID_PARAMS', 'a filtered list pages by offset, not cursor');
        const txs: ListedTx[] = [];
        let total = 0;
        for await (const page of filteredTxs(queries, address, filter))
          for (const t of page) if (total++ >= offset && txs.length < limit) txs.push(t);
        return c.json({ address, count: txs.length, total, txs, nextCursor: null });
      }
      const page = await queries.chain.addressTxs(address, limit, offset, cursor);
      return c.json({ address, count: page.txs.length, total: page.total, txs: page.txs, nextCursor: page.nextCursor });
    },

    getApiStatsTps: (c) => c.json(queries.stats.tps()),
    // Blocks proposed and slots missed per authority over the last 1,000 blocks.
    getApiStatsValidators: (c) => c.json(queries.stats.validators()),
    getApiStatsSupply: (c) => {
      const s = queries.chain.supply();
      return c.json({
        totalSupply: s.circulating,
        totalEmitted: s.totalEmitted,
        totalBurned: s.totalBurned,
        escrow: s.escrow,
        circulating: s.circulating,
        feesPaid: s.feesPaid,
        blocksProduced: s.blocksProduced,
        rewardPerBlock: s.rewardPerBlock,
      });
    },
  });
}
