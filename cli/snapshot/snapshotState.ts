/**
 * `ombra snapshot state --data-dir DIR --out FILE [--json]`: a checkpoint (docs/checkpoints.md) of
 * the chain on DIR: the consensus state, every read model and the block log's recent suffix at one
 * height, from which `ombra start --from-checkpoint FILE --checkpoint-digest HEX` serves at once.
 * A node running on DIR streams it through its admin socket (taken between two writes); a stopped
 * data dir is read directly. Prints the height and the file's SHA-256.
 */
import {
  CheckpointExportFault,
  type CheckpointWritten,
  DEFAULT_SUFFIX_BLOCKS,
  saveDigested,
  writeCheckpoint,
} from '../../checkpoint/checkpointExport.ts';
import { adminOpen } from '../adminClient.ts';
import { flagSpecs, intFlag, parseFlags, UsageError } from '../args.ts';
import { CliFault, openExistingStore, withDataDir } from '../../launch/dataDir.ts';
import { errorMessage } from '../../core/errors.ts';

/** Flags of `ombra snapshot state`. */
export const STATE_FLAGS = flagSpecs({
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the chain (a running node or a stopped one)' },
  out: { type: 'string', env: 'OMBRA_SNAPSHOT_OUT', help: 'output file (written to FILE.tmp, then renamed)' },
  'suffix-blocks': {
    type: 'string',
    help: `blocks of the log's recent suffix the checkpoint carries (default ${DEFAULT_SUFFIX_BLOCKS}; older ones come from peers)`,
  },
  json: { type: 'boolean', help: 'print {height, hash, digest, bytes} as JSON' },
});

/** Runs `ombra snapshot state`. */
export async function snapshotStateCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, STATE_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = flags['data-dir'];
  const outFile = flags.out;
  if (!dataDir) throw new UsageError('--data-dir is required');
  if (!outFile) throw new UsageError('--out is required');
  const suffixBlocks = intFlag(flags, 'suffix-blocks', 1, 100_000_000) ?? DEFAULT_SUFFIX_BLOCKS;
  const done = (r: CheckpointWritten) => {
    if (flags.json === true)
      process.stdout.write(`${JSON.stringify({ height: r.height, hash: r.hash, digest: r.digest, bytes: r.bytes })}\n`);
    else process.stdout.write(`checkpoint at height ${r.height} (${r.hash}) in ${outFile}: ${r.bytes} bytes\ndigest ${r.digest}\n`);
    return 0;
  };
  try {
    const online = await stateFromNode(dataDir, outFile, suffixBlocks);
    if (online) return done(online);
  } catch (e) {
    if (!(e instanceof CliFault)) throw e;
    process.stderr.write(`ombra snapshot: ${e.message}\n`);
    return 1;
  }
  return withDataDir(
    'snapshot',
    () => openExistingStore(dataDir),
    async (store) => {
      try {
        return done(await writeCheckpoint(store, store.db.snapshot(), outFile, { suffixBlocks }));
      } catch (e) {
        throw e instanceof CheckpointExportFault ? new CliFault(e.message) : e;
      }
    },
  );
}

/** Streams the checkpoint of the node running on `dataDir` into `outFile`; null when none runs. */
async function stateFromNode(dataDir: string, outFile: string, suffixBlocks: number): Promise<CheckpointWritten | null> {
  const res = await adminOpen(dataDir, 'GET', `/admin/checkpoint?suffixBlocks=${suffixBlocks}`);
  if (!res) return null;
  const [height, hash, base] = String(res.headers['x-ombra-checkpoint'] ?? '').split(' ');
  if (res.statusCode !== 200 || !hash) {
    let text = '';
    for await (const chunk of res) text += chunk;
    throw new CliFault(`the node refused the checkpoint: ${text.slice(0, 300)}`);
  }
  try {
    // A fault on the node cuts the response: the pipeline fails and no file is left.
    const { digest, bytes } = await saveDigested(res, outFile, () => {
      if (!res.complete) throw new CliFault('the node ended the checkpoint early');
    });
    return { height: Number(height), hash, base: Number(base), digest, bytes };
  } catch (e) {
    throw e instanceof CliFault ? e : new CliFault(`the checkpoint stream failed: ${errorMessage(e)}`);
  }
}
