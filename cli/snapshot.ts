/**
 * `ombra snapshot export`: the block log as NDJSON. Line 1 is `{"genesis": {...}}` (the genesis
 * the node runs with: the stored file plus OMBRA_FORK_HEIGHT* overrides), then blocks 0..head,
 * one compact JSON object per line, in height order. `ombra audit` re-verifies such a file.
 */
import { existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { withForkOverrides } from '../core/genesis.ts';
import { ChainStore } from '../node/chainStore.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';
import { forkOverridesFromEnv } from './forks.ts';
import { dbDirOf } from './launch.ts';
import { progress, type Progress } from './progress.ts';

/** A fault the operator must fix (exit 1, no help). */
export class CliFault extends Error {}

/** True for LevelDB's "another process holds the lock" failure. */
export function isLevelLocked(e: unknown): boolean {
  for (let x = e as { code?: unknown; cause?: unknown } | undefined, i = 0; x && i < 5; x = x.cause as typeof x, i++) {
    if (x.code === 'LEVEL_LOCKED') return true;
  }
  return false;
}

/** Refuses a data dir that has no chain database, without creating one. */
export function requireChainDir(dataDir: string): string {
  const dbDir = dbDirOf(dataDir);
  if (!existsSync(join(dbDir, 'CURRENT')))
    throw new CliFault(`no chain in ${resolve(dataDir)}: it has no database (expected ${join(dbDir, 'CURRENT')})`);
  return dbDir;
}

/** Turns LevelDB's lock failure into the operator's message. */
export function explainOpenError(e: unknown, dataDir: string): unknown {
  if (isLevelLocked(e)) return new CliFault(`data dir ${resolve(dataDir)} is in use by a running node; stop it first`);
  return e;
}

/** Opens the block log of an existing chain data dir. */
export async function openExistingStore(dataDir: string): Promise<ChainStore> {
  const dbDir = requireChainDir(dataDir);
  let store: ChainStore;
  try {
    store = await ChainStore.open(dbDir);
  } catch (e) {
    throw explainOpenError(e, dataDir);
  }
  if (!store.head() || !(await store.genesis())) {
    await store.close();
    throw new CliFault(`no chain in ${resolve(dataDir)}: its database has no genesis`);
  }
  return store;
}

const EXPORT_FLAGS: Record<string, FlagSpec> = {
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the chain (the node must be stopped)' },
  out: { type: 'string', env: 'OMBRA_SNAPSHOT_OUT', help: 'output file (written to FILE.tmp, then renamed)' },
};

const USAGE = 'ombra snapshot export --data-dir DIR --out FILE';
const SUMMARY =
  'Writes the block log as NDJSON: line 1 is {"genesis": {...}} (with OMBRA_FORK_HEIGHT* overrides applied),\n' +
  'then every block from 0 to the head, one JSON object per line. `ombra audit FILE` re-verifies it.\n' +
  'LevelDB allows one process per data dir: stop the node first.';

/** Help for `ombra snapshot`. */
export const snapshotHelp = () => helpText(USAGE, SUMMARY, EXPORT_FLAGS);

/** Runs `ombra snapshot export`. */
export async function snapshotCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'export') throw new UsageError(sub ? `unknown snapshot subcommand ${sub}` : 'a subcommand is required: export');
  const { flags, positionals } = parseFlags(rest, EXPORT_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = flags['data-dir'] as string | undefined;
  const outFile = flags.out as string | undefined;
  if (!dataDir) throw new UsageError('--data-dir is required');
  if (!outFile) throw new UsageError('--out is required');
  const overrides = forkOverridesFromEnv();
  try {
    let bar: Progress | null = null;
    const { blocks, bytes, head } = await exportSnapshot(dataDir, outFile, overrides, (done, total) => {
      bar ??= progress('snapshot export', total, { unit: 'blocks' });
      bar.update(done, total);
    }).finally(() => bar?.stop());
    process.stderr.write(`exported ${blocks} blocks (0..${head.index}, head ${head.hash}) to ${outFile}: ${bytes} bytes\n`);
    return 0;
  } catch (e) {
    if (e instanceof CliFault) {
      process.stderr.write(`ombra snapshot: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

/** Exports a data dir's chain to `outFile` (via `outFile.tmp` and a rename). */
export async function exportSnapshot(
  dataDir: string,
  outFile: string,
  overrides: ReturnType<typeof forkOverridesFromEnv> = {},
  onProgress?: (blocks: number, total: number) => void,
): Promise<{ blocks: number; bytes: number; head: { index: number; hash: string } }> {
  const store = await openExistingStore(dataDir);
  const tmp = `${outFile}.tmp`;
  try {
    const head = store.head()!;
    const genesis = withForkOverrides((await store.genesis())!, overrides);
    let count = 0;
    async function* lines(): AsyncGenerator<string> {
      yield `${JSON.stringify({ genesis })}\n`;
      let expected = 0;
      for await (const block of store.range(0, head.index)) {
        if (block.index !== expected) throw new CliFault(`block log is missing block ${expected} (found ${block.index})`);
        expected++;
        count++;
        if (count % 500 === 0) onProgress?.(count, head.index + 1);
        yield `${JSON.stringify(block)}\n`;
      }
      if (expected !== head.index + 1) throw new CliFault(`block log ends at ${expected - 1}, before its head ${head.index}`);
    }
    try {
      // pipeline applies the file stream's backpressure to the generator; flush fsyncs before close.
      await pipeline(Readable.from(lines(), { objectMode: false }), createWriteStream(tmp, { flush: true }));
      onProgress?.(count, head.index + 1);
      await rename(tmp, outFile);
    } catch (e) {
      await rm(tmp, { force: true });
      throw e;
    }
    return { blocks: count, bytes: (await stat(outFile)).size, head };
  } finally {
    await store.close();
  }
}
