/** Transactions under /api/chain: submit (both request forms) and read by hash. */
import { Hono } from 'hono';
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

  return app;
}
