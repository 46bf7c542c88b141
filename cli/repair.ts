/**
 * `ombra repair --data-dir DIR`: for a node that refuses to start on a damaged block log. Keeps
 * the longest prefix of the log that verifies as a hash chain from block 0, removes everything
 * after it in one batch, then rebuilds every read model from genesis as `ombra replay` does
 * (re-executing each block with signatures, so the kept prefix is also proven by its state roots).
 * When LevelDB itself reports corruption, its own repair (RepairDB) salvages the readable tables
 * first; damage noted on open (node/store/storeDamage.ts) is cleared once the read models are rebuilt.
 * A missing or damaged head pointer (blocks intact) is rebuilt the same way: it is set to the
 * last block of that prefix.
 */
import { Level } from 'level';
import { OmbraNode } from '../node/node.ts';
import { isCorruption, LogIntegrityError } from '../node/store/storeDamage.ts';
import { lastVerifiedBlock } from '../node/store/logIntegrity.ts';
import { flagSpecs, helpText, parseFlags, UsageError } from './args.ts';
import { dbDirOf, explainOpenError, openExistingStore, withDataDir } from '../launch/dataDir.ts';
import { forkOverridesFromEnv } from './forks.ts';
import { progress } from './progress.ts';
import { errorMessage } from '../core/errors.ts';

const REPAIR_FLAGS = flagSpecs({
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the chain (the node must be stopped)' },
});

const USAGE = 'ombra repair --data-dir DIR';
const SUMMARY =
  'Truncates the block log to the last block that verifies from genesis (hash chain and head pointer),\n' +
  'in one batch, and rebuilds every read model from genesis. Stop the node first; peers resend the rest.';

/** Help for `ombra repair`. */
export const repairHelp = () => helpText(USAGE, SUMMARY, REPAIR_FLAGS);

/** Runs `ombra repair`. */
export async function repairCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, REPAIR_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = flags['data-dir'];
  if (!dataDir) throw new UsageError('--data-dir is required');
  const truncate = () =>
    withDataDir(
      'repair',
      () => openExistingStore(dataDir, { headless: true }),
      async (store) => {
        // A missing or damaged head pointer is rebuilt here: the last block that verifies from genesis.
        const before = store.head();
        const last = await lastVerifiedBlock(store);
        const removed = await store.truncateTo(last);
        const was = before ? `head pointer was ${before.index}` : `head pointer was missing or damaged, rebuilt from the log`;
        process.stdout.write(`log truncated to block ${last.index} (${was}; ${removed} stored block(s) removed)\n`);
        return 0;
      },
    );
  let cut: number;
  try {
    cut = await truncate();
  } catch (e) {
    if (!isCorruption(e)) throw e;
    // LevelDB cannot read some of its tables: its own repair keeps every readable entry (older
    // versions of a key may resurface; the walk below keeps only a log that verifies from genesis).
    const why = e instanceof LogIntegrityError ? e.reason : errorMessage(e);
    process.stdout.write(`LevelDB reports corruption (${why}); salvaging its readable tables\n`);
    // `level` runs classic-level on Node, whose ClassicLevel.repair is RepairDB; level's types omit it.
    await (Level as unknown as { repair(location: string): Promise<void> }).repair(dbDirOf(dataDir));
    cut = await truncate();
  }
  if (cut !== 0) return cut;
  return withDataDir(
    'repair',
    async () => {
      try {
        return await OmbraNode.open({
          dbDir: dbDirOf(dataDir),
          forkOverrides: forkOverridesFromEnv(),
          verifyDepth: Number.POSITIVE_INFINITY,
          repairing: true,
          start: false,
        });
      } catch (e) {
        throw explainOpenError(e, dataDir);
      }
    },
    async (node) => {
      const head = node.head();
      const bar = progress('repair', head.index, { unit: 'blocks' });
      try {
        // The replay path: every read model from genesis. Reactors (alerts) are not attached here;
        // the next start attaches them at min(their checkpoint, the new head).
        await node.runner.resetAll();
        await node.catchUp((height, top) => bar.update(height, top), { verifySignatures: true });
      } finally {
        bar.stop();
      }
      // What LevelDB lost or skipped is dealt with: the log verifies and the read models are rebuilt.
      node.store.clearDamage();
      process.stdout.write(`read models rebuilt to block ${head.index}; state root ${head.stateRoot} matches\n`);
      return 0;
    },
  );
}
