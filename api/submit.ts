/**
 * The one submit path: both submit routes (POST /api/chain/tx and POST /api/tasks/submit) read
 * the body, refuse while syncing, accept both request forms and go through the node's
 * `submitTx`, which runs the same `validateTx` as gossip. Refusals are thrown as ChainErrors.
 * A 200 means the transaction is kept and will reach the network: a network node that no peer
 * would hear refuses it (503 NO_PEERS, not kept; p2p/txAnnouncer.ts publishes what it keeps until
 * mined), and a node behind its peers (by a single block, or syncing with one) answers a nonce
 * ahead of its state 503 SYNCING with Retry-After, not 422 NONCE_GAP (the nonce before it may be in
 * blocks this node has not got yet; docs/network.md says why it is not queued instead).
 */
import type { Context } from 'hono';
import { ChainError } from '../core/errors.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { txHash } from '../core/txCodec.ts';
import type { HeadReader, TxSubmitter } from '../node/ports.ts';
import { isJsonObject, readJson } from './body.ts';
import { isBehind, type NetworkView } from './context.ts';

/** What a submission is judged against besides the transaction (api/context.ts ApiOptions). */
export interface SubmitPolicy {
  maxLagBlocks: number;
  requirePeers: boolean;
}

/**
 * Normalises a submission: a signed transaction as is, or the older
 * `{tx: {...without hash and signature}, signature}` whose hash the node computes.
 */
function normaliseSubmission(body: unknown): { raw: Record<string, unknown>; legacy: boolean } {
  if (!isJsonObject(body)) throw new ChainError('INVALID_PARAMS', 'body must be a JSON object');
  const b = body;
  if (!('tx' in b)) return { raw: b, legacy: false };
  for (const k of Object.keys(b))
    if (k !== 'tx' && k !== 'signature') throw new ChainError('INVALID_PARAMS', `${k} is not a known field of {tx, signature}`);
  const t = b.tx;
  if (!isJsonObject(t)) throw new ChainError('INVALID_PARAMS', 'tx must be an object');
  if (typeof b.signature !== 'string') throw new ChainError('INVALID_PARAMS', 'signature is required');
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

/** Submits the request's transaction; `onlyType` refuses any other type with INVALID_PARAMS. */
export async function submitFrom(
  c: Context,
  deps: { chain: TxSubmitter & Pick<HeadReader, 'nextHeight'>; network: NetworkView },
  policy: SubmitPolicy,
  onlyType?: string,
): Promise<{ tx: SignedTx; legacy: boolean }> {
  const body = await readJson(c);
  if (deps.network.syncing()) throw new ChainError('SYNCING', 'node is syncing; try again shortly');
  const { raw, legacy } = normaliseSubmission(body);
  if (onlyType !== undefined && raw.type !== onlyType)
    throw new ChainError('INVALID_PARAMS', `body must be a signed ${onlyType} transaction`);
  if (policy.requirePeers && (deps.network.txRecipients?.() ?? 0) === 0)
    throw new ChainError(
      'NO_PEERS',
      'node has no peer to gossip the transaction to: not kept; send it to another node or try again shortly',
    );
  try {
    return { tx: await deps.chain.submitTx(raw), legacy };
  } catch (e) {
    // A gap on a node behind its peers by any block, or syncing with one, may be the blocks it
    // has not got yet (a client sending consecutive nonces to several nodes): the client is sent
    // elsewhere, not refused. Past the lag the health check reports, the node is not asked at all.
    if (
      e instanceof ChainError &&
      e.code === 'NONCE_GAP' &&
      (isBehind(deps.network, deps.chain.nextHeight() - 1, 0) || deps.network.behind?.())
    )
      throw new ChainError(
        'SYNCING',
        `node is behind its peers and cannot judge this nonce yet (${e.message}); try another node or again shortly`,
      );
    throw e;
  }
}
