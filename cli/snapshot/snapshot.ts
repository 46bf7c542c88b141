/**
 * `ombra snapshot export`: the block log as NDJSON (`ombra snapshot state`, a checkpoint, is cli/snapshot/snapshotState.ts). Line 1 is `{"genesis": {...}}` (the genesis
 * the node runs with: the stored file plus OMBRA_FORK_HEIGHT* overrides), then blocks 0..head,
 * one compact JSON object per line, in height order. `ombra audit` re-verifies such a file.
 * A running node on the data dir streams it through its admin socket; a stopped data dir is read
 * directly. Either way every line comes from one LevelDB snapshot (node/store/snapshotView.ts).
 */
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { withForkOverrides } from '../../core/genesis.ts';
import type { ChainStore } from '../../node/store/chainStore.ts';
import { openSnapshotView, SnapshotFault } from '../../node/store/snapshotView.ts';
import { adminOpen } from '../adminClient.ts';
import { flagSpecs, helpText, parseFlags, UsageError } from '../args.ts';
import { CliFault, openExistingStore, withDataDir } from '../../launch/dataDir.ts';
import { forkOverridesFromEnv } from '../forks.ts';
import { progress, type Progress } from '../progress.ts';
import { STATE_FLAGS, snapshotStateCommand } from './snapshotState.ts';

const EXPORT_FLAGS = flagSpecs({
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the chain (a running node or a stopped one)' },
  out: { type: 'string', env: 'OMBRA_SNAPSHOT_OUT', help: 'output file (written to FILE.tmp, then renamed)' },
});

const USAGE = 'ombra snapshot export --data-dir DIR --out FILE';
const SUMMARY =
  'Writes the block log as NDJSON: line 1 is {"genesis": {...}} (with OMBRA_FORK_HEIGHT* overrides applied),\n' +
  'then every block from 0 to the head, one JSON object per line. `ombra audit FILE` re-verifies it.\n' +
  'A node running on DIR exports it through DIR/admin.sock, consistent at one height while it keeps producing.';

const STATE_USAGE = 'ombra snapshot state --data-dir DIR --out FILE [--suffix-blocks N] [--json]';
const STATE_SUMMARY =
  'Writes a checkpoint: the consensus state, every read model and the recent blocks at one height (docs/checkpoints.md),\n' +
  'and prints its height and SHA-256 digest. `ombra start --from-checkpoint FILE --checkpoint-digest HEX` starts from it.';

/** Help for `ombra snapshot` (for `ombra snapshot state --help`, that subcommand's). */
export const snapshotHelp = (argv: string[] = []) =>
  argv[0] === 'state'
    ? helpText(STATE_USAGE, STATE_SUMMARY, STATE_FLAGS)
    : `${helpText(USAGE, SUMMARY, EXPORT_FLAGS)}\n${helpText(STATE_USAGE, STATE_SUMMARY, STATE_FLAGS)}`;

type Exported = { blocks: number; bytes: number; head: { index: number; hash: string } };

/** Runs `ombra snapshot export`. */
export async function snapshotCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'state') return snapshotStateCommand(rest);
  if (sub !== 'export') throw new UsageError(sub ? `unknown snapshot subcommand ${sub}` : 'a subcommand is required: export or state');
  const { flags, positionals } = parseFlags(rest, EXPORT_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = flags['data-dir'];
  const outFile = flags.out;
  if (!dataDir) throw new UsageError('--data-dir is required');
  if (!outFile) throw new UsageError('--out is required');
  let bar: Progress | null = null;
  const onProgress = (done: number, total: number) => {
    bar ??= progress('snapshot export', total, { unit: 'blocks' });
    bar.update(done, total);
  };
  const done = (r: Exported) => {
    process.stderr.write(`exported ${r.blocks} blocks (0..${r.head.index}, head ${r.head.hash}) to ${outFile}: ${r.bytes} bytes\n`);
    return 0;
  };
  try {
    const online = await exportFromNode(dataDir, outFile, onProgress).finally(() => bar?.stop());
    if (online) return done(online);
  } catch (e) {
    if (!(e instanceof CliFault)) throw e;
    process.stderr.write(`ombra snapshot: ${e.message}\n`);
    return 1;
  }
  const overrides = forkOverridesFromEnv();
  return withDataDir(
    'snapshot',
    () => openExistingStore(dataDir),
    async (store) => done(await exportSnapshot(store, outFile, overrides, onProgress).finally(() => bar?.stop())),
  );
}

/** Exports through the admin socket of the node running on `dataDir`; null when none runs. */
async function exportFromNode(
  dataDir: string,
  outFile: string,
  onProgress: (done: number, total: number) => void,
): Promise<Exported | null> {
  const res = await adminOpen(dataDir, 'GET', '/admin/snapshot');
  if (!res) return null;
  const [index, hash] = String(res.headers['x-ombra-head'] ?? '').split(' ');
  if (res.statusCode !== 200 || !hash) {
    let text = '';
    for await (const chunk of res) text += chunk;
    throw new CliFault(`the node refused the export: ${text.slice(0, 300)}`);
  }
  const head = { index: Number(index), hash };
  let lines = 0;
  // Counts lines as they pass: a stream cut short (a fault on the node) leaves fewer than head + 2.
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      for (const byte of chunk) if (byte === 10) lines++;
      if (lines > 1) onProgress(lines - 1, head.index + 1);
      cb(null, chunk);
    },
  });
  await writeAtomically(outFile, async (file) => {
    await pipeline(res, counter, file);
    if (lines !== head.index + 2) throw new CliFault(`the export ended after ${lines - 1} of ${head.index + 1} blocks`);
  });
  return { blocks: lines - 1, bytes: (await stat(outFile)).size, head };
}

/** Exports a stopped chain's block log to `outFile` (via `outFile.tmp` and a rename), from one snapshot. */
async function exportSnapshot(
  store: ChainStore,
  outFile: string,
  overrides: ReturnType<typeof forkOverridesFromEnv> = {},
  onProgress?: (blocks: number, total: number) => void,
): Promise<Exported> {
  const view = await openSnapshotView(store, (g) => withForkOverrides(g, overrides));
  let count = 0;
  const total = view.head.index + 1;
  try {
    await writeAtomically(outFile, (file) =>
      pipeline(
        Readable.from(
          view.lines((n) => {
            count = n;
            if (n % 500 === 0) onProgress?.(n, total);
          }),
        ),
        file,
      ),
    );
  } catch (e) {
    throw e instanceof SnapshotFault ? new CliFault(e.message) : e;
  } finally {
    await view.close();
  }
  onProgress?.(count, total);
  return { blocks: count, bytes: (await stat(outFile)).size, head: view.head };
}

/** Writes `outFile.tmp` through `write`, then renames it over `outFile`; removes the tmp file on failure. */
async function writeAtomically(outFile: string, write: (file: NodeJS.WritableStream) => Promise<void>): Promise<void> {
  const tmp = `${outFile}.tmp`;
  try {
    // flush fsyncs before close.
    await write(createWriteStream(tmp, { flush: true }));
    await rename(tmp, outFile);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
