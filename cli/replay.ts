/**
 * `ombra replay --data-dir DIR`: drops every read model and rebuilds it from genesis by
 * re-executing the block log with full verification (signatures included). Each block's
 * stateRoot is checked on the way, so a finished replay proves the head's state root.
 */
import { helpText, parseFlags, UsageError, type FlagSpec } from './args.ts';
import { forkOverridesFromEnv } from './forks.ts';
import { progress } from './progress.ts';
import { openExistingNode, withDataDir } from './dataDir.ts';
import { chainStatsProjection } from '../projections/chainStats.ts';

const REPLAY_FLAGS: Record<string, FlagSpec> = {
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the chain (the node must be stopped)' },
};

const USAGE = 'ombra replay --data-dir DIR';
const SUMMARY =
  'Rebuilds every read model (accounts, indexes, stats, supply, holders) from genesis, re-verifying\n' +
  'every block and signature, with progress on stderr. The data dir keeps its genesis; stop the node first.\n' +
  'Fork heights follow OMBRA_FORK_HEIGHT and OMBRA_FORK_HEIGHT_V3.._V7 when set, as for `ombra start`.';

/** Help for `ombra replay`. */
export const replayHelp = () => helpText(USAGE, SUMMARY, REPLAY_FLAGS);

/** Runs `ombra replay`. */
export async function replayCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, REPLAY_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = flags['data-dir'] as string | undefined;
  if (!dataDir) throw new UsageError('--data-dir is required');
  const forkOverrides = forkOverridesFromEnv();
  return withDataDir(
    'replay',
    () => openExistingNode(dataDir, forkOverrides),
    async (node) => {
      const head = node.head();
      const started = performance.now();
      const bar = progress('replay', head.index, { unit: 'blocks' });
      try {
        await node.runner.resetAll();
        await node.catchUp((height, top) => bar.update(height, top), { verifySignatures: true });
      } finally {
        bar.stop();
      }
      const seconds = (performance.now() - started) / 1000;
      const txs = node.runner.state(chainStatsProjection).totalTxs;
      const heights = Object.values(node.runner.heights());
      if (heights.some((h) => h !== head.index))
        throw new Error(`replay ended with projections at ${heights.join(', ')}, head ${head.index}`);
      const rate = (n: number) => (seconds > 0 ? Math.round(n / seconds) : n);
      process.stdout.write(
        `replayed ${head.index} blocks in ${seconds.toFixed(2)} s (${rate(head.index)} blocks/s, ${rate(txs)} tx/s); state root ${head.stateRoot} matches\n`,
      );
      return 0;
    },
  );
}
