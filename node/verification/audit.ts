/**
 * `ombra audit FILE`: re-verifies a snapshot (see `ombra snapshot export`) from genesis with the
 * consensus code itself: the genesis line, block 0, then every block through core `applyBlock`
 * (links, slots, proposer, attestation, txRoot, every transaction's shape, hash, signature and
 * state rules, tokens, stateRoot). The file is streamed line by line, never loaded whole.
 *
 * Blocks go through the node's one catch-up pipeline (node/verification/blockPipeline.ts, as replay and sync
 * do): signatures of big files are checked ahead in worker threads, and a block with any failing
 * signature is applied with inline verification, so the reported fault is exactly the one a
 * single-threaded audit reports.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { isDeepStrictEqual } from 'node:util';
import { applyBlock, genesisState } from '../../core/applyBlock.ts';
import type { Block } from '../../core/block.ts';
import { parseGenesis, withForkOverrides, type ForkHeights, type Genesis } from '../../core/genesis.ts';
import { commitDiff, type ChainState } from '../../core/state.ts';
import { batchesOf, runPipeline, type PipelineItem } from './blockPipeline.ts';
import type { ChainStore } from '../store/chainStore.ts';
import { VerifyPool } from './verifyPool.ts';
import { errorMessage } from '../../core/errors.ts';

/** The outcome of an audit. */
export type AuditResult =
  | { ok: true; blocks: number; transactions: number; head: string }
  | { ok: false; height: number; line: number; message: string };

/** Options of `auditSnapshot`. */
export interface AuditOptions {
  forkOverrides?: Partial<ForkHeights>;
  /** Signature workers (0: verify inline). */
  workers?: number;
  /** Bytes read so far, out of the file's size. */
  onProgress?: (bytes: number, total: number) => void;
}

class Fault extends Error {
  readonly height: number;
  readonly line: number;
  constructor(height: number, line: number, message: string) {
    super(message);
    this.height = height;
    this.line = line;
  }
}

/** Where a block line came from, and why it cannot be a block if it cannot. */
interface LineMeta {
  line: number;
  /** Set when the line is not a block at all (not JSON, or a blank line before the end). */
  fault?: string;
}

/** A batch (verified ahead while the previous one is applied) ends at this many blocks or transactions. */
const BATCH = { maxBlocks: 256, maxTxs: 4096 };

/** Where the audit stands: the genesis once known, the state and parent block, the count of transactions. */
interface AuditCursor {
  genesis: Genesis | null;
  state: ChainState | null;
  parent: Block | null;
  transactions: number;
}

/**
 * Runs `items` (block 0 first) through the catch-up pipeline and the consensus code, advancing
 * `cur`; throws a Fault at the first block that is not the valid next one.
 */
async function auditItems(items: AsyncIterable<PipelineItem<LineMeta>>, cur: AuditCursor, pool: VerifyPool | null): Promise<void> {
  /** The height the next block must hold. */
  const expectedHeight = () => (cur.parent ? cur.parent.index + 1 : 0);

  const onBlockZero = (item: PipelineItem<LineMeta>) => {
    // The genesis line (or the stored genesis) is read before any block.
    if (!cur.genesis) throw new Fault(0, item.meta.line, 'block 0 comes before a genesis');
    const { state: s, block } = genesisState(cur.genesis);
    const got = item.block as Partial<Block> | null;
    if (typeof got !== 'object' || got === null || got.hash !== block.hash) {
      throw new Fault(
        0,
        item.meta.line,
        `block 0 is not the genesis block of the genesis line: hash ${String((got as Partial<Block> | null)?.hash).slice(0, 80)}, expected ${block.hash}`,
      );
    }
    if (!isDeepStrictEqual(got, block))
      throw new Fault(0, item.meta.line, 'block 0 has the genesis hash but differs from the genesis block');
    cur.state = s;
    cur.parent = block;
  };

  const onBlock = (item: PipelineItem<LineMeta>, verified: boolean) => {
    try {
      // Set by block 0, which every later block follows.
      const { parent: p, state, genesis } = cur;
      if (!p || !state || !genesis) throw new Error('a block came before block 0');
      const applied = applyBlock(
        state,
        { index: p.index, hash: p.hash, timestamp: p.timestamp, stateRoot: p.stateRoot },
        item.block,
        genesis,
        { signaturesVerified: verified, txBytes: item.txBytes },
      );
      commitDiff(state, applied.diff);
    } catch (e) {
      throw new Fault(expectedHeight(), item.meta.line, errorMessage(e));
    }
    cur.parent = item.block as Block;
    cur.transactions += cur.parent.transactions.length;
  };

  await runPipeline(batchesOf(items, BATCH), pool, (item, verified) => {
    if (item.meta.fault) throw new Fault(cur.genesis ? expectedHeight() : 0, item.meta.line, item.meta.fault);
    if (cur.parent) onBlock(item, verified);
    else onBlockZero(item);
  });
}

/** Verifies a snapshot file from genesis; never throws for faults in the file. */
export async function auditSnapshot(path: string, opts: AuditOptions = {}): Promise<AuditResult> {
  const total = (await stat(path)).size;
  const input = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const rl = createInterface({ input, crlfDelay: Infinity });
  const pool = opts.workers && opts.workers > 0 ? new VerifyPool({ workers: opts.workers }) : null;

  let lineNo = 0;
  const cur: AuditCursor = { genesis: null, state: null, parent: null, transactions: 0 };

  const onGenesisLine = (text: string, line: number) => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new Fault(0, line, `genesis line is not valid JSON (${errorMessage(e)})`);
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.keys(raw).length !== 1 || !('genesis' in raw)) {
      throw new Fault(0, line, 'the first line must be {"genesis": {...}}');
    }
    try {
      cur.genesis = withForkOverrides(parseGenesis((raw as { genesis: unknown }).genesis), opts.forkOverrides ?? {});
    } catch (e) {
      throw new Fault(0, line, errorMessage(e));
    }
  };

  /** The file's block lines; a line that cannot be a block is yielded with its fault, and ends the file. */
  async function* lines(): AsyncGenerator<PipelineItem<LineMeta>> {
    let bytes = 0;
    let lastProgress = 0;
    let blankRun = 0;
    for await (const text of rl) {
      lineNo++;
      bytes += text.length + 1;
      if (text.trim() === '') {
        blankRun++;
        continue;
      }
      // Blank lines are only tolerated at the end of the file.
      if (blankRun > 0) {
        yield { block: undefined, meta: { line: lineNo - blankRun, fault: 'empty line' } };
        return;
      }
      if (lineNo === 1) {
        onGenesisLine(text, lineNo);
        continue;
      }
      let block: unknown;
      try {
        block = JSON.parse(text);
      } catch (e) {
        yield { block: undefined, meta: { line: lineNo, fault: `not valid JSON (${errorMessage(e)})` } };
        return;
      }
      yield { block, meta: { line: lineNo } };
      if (opts.onProgress && bytes - lastProgress >= 1 << 20) {
        lastProgress = bytes;
        opts.onProgress(Math.min(bytes, total), total);
      }
    }
  }

  try {
    await auditItems(lines(), cur, pool);
    if (lineNo === 0 || !cur.genesis) throw new Fault(0, 1, 'the file is empty: no genesis line');
    opts.onProgress?.(total, total);
    if (!cur.parent) throw new Fault(0, lineNo + 1, 'the file has no block 0 after the genesis line');
    const head = cur.parent as Block;
    return { ok: true, blocks: head.index + 1, transactions: cur.transactions, head: head.hash };
  } catch (e) {
    if (e instanceof Fault) return { ok: false, height: e.height, line: e.line, message: e.message };
    throw e;
  } finally {
    rl.close();
    input.destroy();
    await pool?.close();
  }
}

/**
 * Verifies a stopped node's own block log from genesis as a snapshot is verified (the same
 * pipeline and consensus code), then that its head pointer names the last block; `line` is the
 * height. Never throws for faults in the log.
 */
export async function auditStore(store: ChainStore, opts: AuditOptions = {}): Promise<AuditResult> {
  const head = store.head();
  const pool = opts.workers && opts.workers > 0 ? new VerifyPool({ workers: opts.workers }) : null;
  const cur: AuditCursor = { genesis: null, state: null, parent: null, transactions: 0 };
  async function* blocks(): AsyncGenerator<PipelineItem<LineMeta>> {
    for await (const [key, block] of store.blocks.iterator()) {
      const height = Number(key);
      yield { block, meta: { line: height } };
      if (opts.onProgress && head && height % 1000 === 0) opts.onProgress(Math.min(height, head.index), head.index);
    }
  }
  try {
    try {
      cur.genesis = withForkOverrides(parseGenesis(await store.genesis()), opts.forkOverrides ?? {});
    } catch (e) {
      throw new Fault(0, 0, `the stored genesis is not valid: ${errorMessage(e)}`);
    }
    await auditItems(blocks(), cur, pool);
    const last = cur.parent;
    if (!last) throw new Fault(0, 0, 'the log has no block 0');
    if (!head) throw new Fault(last.index + 1, last.index + 1, `the log ends at block ${last.index} but has no head pointer`);
    if (last.index !== head.index || last.hash !== head.hash)
      throw new Fault(
        Math.min(last.index, head.index) + 1,
        last.index + 1,
        `the head pointer says block ${head.index} (${head.hash.slice(0, 16)}…) but the log ends at block ${last.index}`,
      );
    opts.onProgress?.(head.index, head.index);
    return { ok: true, blocks: last.index + 1, transactions: cur.transactions, head: last.hash };
  } catch (e) {
    if (e instanceof Fault) return { ok: false, height: e.height, line: e.line, message: e.message };
    throw e;
  } finally {
    await pool?.close();
  }
}
