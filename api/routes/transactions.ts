/** Transactions under /api/chain: submit (both request forms) and read by hash. */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import { txHash } from '../../core/txCodec.ts';
import { readJson } from '../body.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { parseHash } from '../params.ts';

/**
 * Normalises a submission: a signed transaction as is, or the older
 * `{tx: {...without hash and signature}, signature}` whose hash the node computes.
 */
export function normaliseSubmission(body: unknown): { raw: unknown; legacy: boolean } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ChainError('INVALID_PARAMS', 'body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (!('tx' in b)) return { raw: b, legacy: false };
  for (const k of Object.keys(b))
    if (k !== 'tx' && k !== 'signature') throw new ChainError('INVALID_PARAMS', `${k} is not a known field of {tx, signature}`);
  const tx = b.tx;
  if (typeof tx !== 'object' || tx === null || Array.isArray(tx)) throw new ChainError('INVALID_PARAMS', 'tx must be an object');
  if (typeof b.signature !== 'string') throw new ChainError('INVALID_PARAMS', 'signature is required');
  const t = tx as Record<string, unknown>;
  if ('hash' in t || 'signature' in t)
    throw new ChainError('INVALID_PARAMS', 'tx must not carry hash or signature in the {tx, signature} form');
  // The hash needs a known type and a public key; shape errors surface from validation.
  let hash = '';
  try {
    hash = txHash(t);
  } catch (e) {
    if (e instanceof ChainError) throw e;
    throw new ChainError('INVALID_PARAMS', 'tx is malformed');
  }
  return { raw: { ...t, hash, signature: b.signature }, legacy: true };
}

/** Transaction routes. */
export function transactionRoutes({ node, queries, network }: ApiDeps): Hono {
  const app = new Hono();

  app.post('/tx', async (c) => {
    const body = await readJson(c);
    if (network.syncing()) throw new ChainError('SYNCING', 'node is syncing; try again shortly');
    const { raw, legacy } = normaliseSubmission(body);
    const tx = await node.submitTx(raw);
    return c.json(legacy ? { ok: true, hash: tx.hash, txHash: tx.hash } : { ok: true, hash: tx.hash });
  });

  app.get('/tx/:hash', async (c) => {
    const hash = parseHash(c.req.param('hash'));
    const confirmed = await queries.tx(hash);
    if (confirmed) return c.json({ ...confirmed, status: 'confirmed' });
    const pending = node.mempool.get(hash);
    if (pending) return c.json({ ...pending, status: 'pending' });
    return notFound(`transaction ${hash}`);
  });

  return app;
}
