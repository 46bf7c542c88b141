/**
 * `ombra snapshot export`: the block log as NDJSON. Line 1 is `{"genesis": {...}}` (the genesis
 * the node runs with: the stored file plus OMBRA_FORK_HEIGHT* overrides), then blocks 0..head,
 * one compact JSON object per line, in height order. `ombra audit` re-verifies such a file.
 */
import { rename, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { withForkOverrides } from '../core/genesis.ts';
import type { ChainStore } from '../node/chainStore.ts';
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';
import { forkOverridesFromEnv } from './forks.ts';
import { CliFault, openExistingStore, withDataDir } from './dataDir.ts';
import { progress, type Progress } from './progress.ts';

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
  return withDataDir(
    'snapshot',
    () => openExistingStore(dataDir),
    async (store) => {
      let bar: Progress | null = null;
      const { blocks, bytes, head } = await exportSnapshot(store, outFile, overrides, (done, total) => {
        bar ??= progress('snapshot export', total, { unit: 'blocks' });
        bar.update(done, total);
      }).finally(() => bar?.stop());
      process.stderr.write(`exported ${blocks} blocks (0..${head.index}, head ${head.hash}) to ${outFile}: ${bytes} bytes\n`);
      return 0;
    },
  );
}

/** Exports a chain's block log to `outFile` (via `outFile.tmp` and a rename). */
async function exportSnapshot(
  store: ChainStore,
  outFile: string,
  overrides: ReturnType<typeof forkOverridesFromEnv> = {},
  onProgress?: (blocks: number, total: number) => void,
): Promise<{ blocks: number; bytes: number; head: { index: number; hash: string } }> {
  const tmp = `${outFile}.tmp`;
  {
    const head = store.head();
    const stored = await store.genesis();
    if (!head || !stored) throw new CliFault('the block log holds no chain to snapshot');
    const top = head.index;
    const genesis = withForkOverrides(stored, overrides);
    let count = 0;
    async function* lines(): AsyncGenerator<string> {
      yield `${JSON.stringify({ genesis })}\n`;
      let expected = 0;
      for await (const block of store.range(0, top)) {
        if (block.index !== expected) throw new CliFault(`block log is missing block ${expected} (found ${block.index})`);
        expected++;
        count++;
        if (count % 500 === 0) onProgress?.(count, top + 1);
        yield `${JSON.stringify(block)}\n`;
      }
      if (expected !== top + 1) throw new CliFault(`block log ends at ${expected - 1}, before its head ${top}`);
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
  }
}
