/**
 * The one catch-up pipeline, shared by the node's catch-up (start and `replay`), `ombra audit`
 * and p2p sync: blocks arrive in batches; while batch k is applied in order on this thread,
 * the signatures of batch k+1 are checked in worker threads. A block whose signatures all passed
 * is applied with `signaturesVerified`; any other block is applied with inline verification, so
 * a fault is reported exactly as a single-threaded pass reports it. A block marked `assumed`
 * (assume-valid: node/verification/assumeValid.ts, p2p/chainFetcher.ts) has its signatures taken as verified.
 */
import { txBytes } from '../../core/applyBlock.ts';
import type { Block } from '../../core/block.ts';
import { type SignedItem, signedItemsOf, txsOf } from './verifyJob.ts';
import type { VerifyPool } from './verifyPool.ts';

/** One block of a batch: its raw value (anything a peer or file sent) and the caller's data. */
export interface PipelineItem<M> {
  block: unknown;
  meta: M;
  /** `txBytes` of the block's transactions, when the batching measured it (pass it to applyBlock). */
  txBytes?: number;
  /** Its signatures are assumed valid (node/verification/assumeValid.ts, assume-valid sync): not checked, applied as verified. */
  assumed?: boolean;
  /**
   * The stored bytes `block` was parsed from (node/verification/assumeValid.ts): a batch of such
   * items goes to the workers as bytes, which check its transactions too (blockCheckJob.ts).
   */
  bytes?: Uint8Array;
  /** The workers checked its transactions' shape, hashes and txRoot (pass it to applyBlock, with `txBytes`). */
  txsChecked?: boolean;
}

/** Ends a batch at this many blocks, transactions or bytes of transactions, whichever comes first. */
export interface BatchLimits {
  maxBlocks: number;
  maxTxs: number;
  /** Bytes of transaction JSON (two batches are held at once: the one applied, the one verified). */
  maxBytes: number;
}

/** Defaults: batches small enough to keep both threads busy, big enough to amortise hand-off. */
export const defaultBatchLimits: BatchLimits = { maxBlocks: 256, maxTxs: 4096, maxBytes: 32 * 1024 * 1024 };

/**
 * Groups items into batches by block count and transaction count. A source may hand over items
 * one at a time or in chunks (the log's reader: a step of an async generator a block would cost
 * a near-empty block's rebuild more than its hashing).
 */
export async function* batchesOf<M>(
  items: AsyncIterable<PipelineItem<M> | readonly PipelineItem<M>[]>,
  given: Partial<BatchLimits> = {},
): AsyncGenerator<PipelineItem<M>[]> {
  const limits = { ...defaultBatchLimits, ...given };
  let batch: PipelineItem<M>[] = [];
  let txs = 0;
  let bytes = 0;
  try {
    for await (const got of items)
      for (const item of isChunk(got) ? got : [got]) {
        batch.push(item);
        const list = txsOf(item.block);
        txs += list?.length ?? 0;
        // Stored bytes are measured by the workers (their size bounds the batch meanwhile); others
        // once here: applyBlock is handed the figure instead of serialising every transaction again.
        if (item.bytes) bytes += item.bytes.byteLength;
        else if (list) {
          item.txBytes = txBytes(list);
          bytes += item.txBytes;
        }
        if (batch.length >= limits.maxBlocks || txs >= limits.maxTxs || bytes >= limits.maxBytes) {
          yield batch;
          batch = [];
          txs = 0;
          bytes = 0;
        }
      }
  } catch (e) {
    // A source that fails midway (a peer hanging up) still has what it delivered applied first.
    if (batch.length) yield batch;
    throw e;
  }
  if (batch.length) yield batch;
}

function isChunk<M>(got: PipelineItem<M> | readonly PipelineItem<M>[]): got is readonly PipelineItem<M>[] {
  return Array.isArray(got);
}

/** Stored or fetched blocks as pipeline items. */
export async function* blockItems(blocks: AsyncIterable<Block> | Iterable<Block>): AsyncGenerator<PipelineItem<undefined>> {
  for await (const block of blocks) yield { block, meta: undefined };
}

/**
 * Checks a batch's signatures (every transaction's and the attestation's) on the pool; resolves
 * with each item's verdict (true = all passed).
 */
async function verifyBatch<M>(pool: VerifyPool | null, batch: PipelineItem<M>[]): Promise<boolean[]> {
  const verified = batch.map((item) => item.assumed === true);
  if (!pool) return verified;
  if (batch.every((item) => item.bytes)) return checkStored(pool, batch);
  const txs: SignedItem[] = [];
  const owner: number[] = [];
  batch.forEach((item, i) => {
    if (item.assumed === true) return;
    const items = signedItemsOf(item.block);
    if (!items) return;
    for (const tx of items) {
      txs.push(tx);
      owner.push(i);
    }
    verified[i] = true;
  });
  if (txs.length === 0) return verified;
  for (const bad of await pool.verifyTxs(txs)) verified[owner[bad]] = false;
  return verified;
}

/**
 * Stored blocks checked from their bytes in the workers: signatures (unless assumed) and the
 * transactions' stateless checks; each item that passed the latter is marked `txsChecked`.
 */
async function checkStored<M>(pool: VerifyPool, batch: PipelineItem<M>[]): Promise<boolean[]> {
  const v = await pool.checkBlocks(batch.map((item) => ({ bytes: item.bytes ?? new Uint8Array(), assumed: item.assumed === true })));
  return batch.map((item, i) => {
    if (v.txBytes[i] >= 0) {
      item.txBytes = v.txBytes[i];
      item.txsChecked = true;
    }
    return v.signatures[i] === 1;
  });
}

/** A batch taken from the source, its signatures being verified. */
interface StartedBatch<M> {
  batch: PipelineItem<M>[];
  verdicts: Promise<boolean[]>;
}

/** What `afterBatch` learns of the batch after the one just applied (with `lookahead`). */
export interface Ahead {
  /** The highest block index of the next batch, when every signature in it passed. */
  verifiedTop?: number;
}

/**
 * Runs `apply` over every item in order, verifying the next batch's signatures on `pool` (none:
 * everything is verified inline) while the current one is applied. Stops at the first throw of
 * `apply` (and rethrows it); the batches being verified ahead are then abandoned. With
 * `lookahead`, two batches are verified ahead and `afterBatch` hears whether the next one passed
 * (its verdicts are awaited first: begun a batch earlier, they are usually in by then).
 */
export async function runPipeline<M>(
  batches: AsyncIterable<PipelineItem<M>[]>,
  pool: VerifyPool | null,
  apply: (item: PipelineItem<M>, signaturesVerified: boolean) => void | Promise<void>,
  /** After each batch's items were applied (e.g. commit them as a group). */
  afterBatch?: (ahead: Ahead) => Promise<void>,
  opts: { lookahead?: boolean } = {},
): Promise<void> {
  const it = batches[Symbol.asyncIterator]();
  type Started = StartedBatch<M> | { error: unknown } | null;
  // Source reads not yet answered (with lookahead one may still be out when apply throws).
  let reading = 0;
  const start = async (): Promise<Started> => {
    reading++;
    try {
      const r = await it.next();
      if (r.done) return null;
      const verdicts = verifyBatch(pool, r.value);
      // A worker failure surfaces when the verdicts are awaited, not as an unhandled rejection.
      verdicts.catch(() => undefined);
      return { batch: r.value, verdicts };
    } catch (error) {
      // A source that fails after batch k still has batch k (and those before) applied first.
      return { error };
    } finally {
      reading--;
    }
  };
  // Batches taken from the source ahead of the one applied: the next one is awaited before the
  // current one is applied (as without lookahead); with lookahead the one after it is asked for
  // too, but not waited for (its fetch and verification overlap this batch's import).
  const depth = opts.lookahead ? 2 : 1;
  const queue: Promise<Started>[] = [start()];
  let ended = false;
  const refill = () => {
    while (!ended && queue.length < depth) {
      const next = start();
      queue.push(next);
      void next.then((r) => {
        if (r === null || 'error' in r) ended = true;
      });
    }
  };
  try {
    for (let current = await queue.shift(); current; current = await queue.shift()) {
      if ('error' in current) throw current.error;
      refill();
      // The next batch as before: in hand before this one is applied.
      const next = await queue[0];
      const verdicts = await current.verdicts;
      for (let i = 0; i < current.batch.length; i++) {
        // An apply with nothing to wait for answers undefined: no turn is awaited for it.
        const applying = apply(current.batch[i], verdicts[i]);
        if (applying) await applying;
      }
      if (afterBatch) await afterBatch(opts.lookahead ? await aheadOf(next) : {});
      if (next === null || (next && 'error' in next)) ended = true;
    }
  } finally {
    // A read still out would hold the source's return until it is answered: it ends on its own.
    if (reading === 0) await it.return?.(undefined);
    else void it.return?.(undefined)?.catch(() => undefined);
  }
}

/** The next batch's verified top, once its verdicts are in (nothing when any failed or none is started). */
async function aheadOf<M>(next: StartedBatch<M> | { error: unknown } | null | undefined): Promise<Ahead> {
  if (!next || 'error' in next) return {};
  const verdicts = await next.verdicts.catch(() => null);
  if (!verdicts || verdicts.some((v) => !v)) return {};
  const top = (next.batch[next.batch.length - 1]?.block as { index?: unknown } | null)?.index;
  return typeof top === 'number' ? { verifiedTop: top } : {};
}
