/** Transactions under /api/chain: submit (both request forms), read by hash, and every one newest first. */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import type { ApiDeps } from '../context.ts';
import { type SubmitPolicy, submitFrom } from '../submit.ts';
import { notFound } from '../errors.ts';
import { BLOCK_ENDPOINTS as E } from '../endpoints/blocks.ts';
import { serve } from '../endpoints/endpoint.ts';

/** Transaction routes. */
export function transactionRoutes(deps: ApiDeps, policy: SubmitPolicy): Hono {
  const { queries } = deps;
  const app = new Hono();

  serve(app, E.postApiChainTx, async (c) => {
    const { tx, legacy } = await submitFrom(c, deps, policy);
    return c.json(legacy ? { ok: true, hash: tx.hash, txHash: tx.hash } : { ok: true, hash: tx.hash });
  });

  serve(app, E.getApiChainTxHash, async (c, { params: { hash } }) => {
    const found = await queries.chain.txStatus(hash);
    if (!found) return notFound(`transaction ${hash}`);
    return c.json({ ...found.tx, status: found.status });
  });

  serve(app, E.getApiChainTxs, async (c, { query: { offset, cursor, limit } }) => {
    if (cursor !== undefined && offset > 0) throw new ChainError('INVALID_PARAMS', 'give offset or cursor, not both');
    const page = await queries.chain.allTxs(limit, offset, cursor);
    return c.json({ count: page.txs.length, total: page.total, txs: page.txs, nextCursor: page.nextCursor });
  });

  return app;
}
