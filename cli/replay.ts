/**
 * `ombra replay --data-dir DIR [--verify-all]`: drops every read model and rebuilds it from
 * genesis by re-executing the block log: hashes, links, Merkle roots, every state transition and
 * each block's stateRoot, so a finished replay proves the head's state root. Signatures at or
 * below the height through which the node verified them itself are assumed valid, the stored
 * bytes' digest checked instead (node/verification/assumeValid.ts); `--verify-all` checks them too.
 */
import { flagSpecs, helpText, parseFlags, UsageError } from './args.ts';
import { forkOverridesFromEnv } from './forks.ts';
import { progress } from './progress.ts';
import { openExistingNode, withDataDir } from '../launch/dataDir.ts';
import { chainStatsProjection } from '../projections/chainStats.ts';

const REPLAY_FLAGS = flagSpecs({
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the chain (the node must be stopped)' },
  'verify-all': {
    type: 'boolean',
    env: 'OMBRA_VERIFY_ALL',
    help: 'check every signature too, also those the node verified itself when it stored the blocks',
  },
});

const USAGE = 'ombra replay --data-dir DIR [--verify-all]';
const SUMMARY =
  'Rebuilds every read model (accounts, indexes, stats, supply, holders) from genesis, re-verifying\n' +
  'every block, with progress on stderr. Signatures the node verified itself when it stored the blocks are\n' +
  'not checked again (the stored bytes are checked against its digest of them); --verify-all checks them.\n' +
  'The data dir keeps its genesis; stop the node first.\n' +
  'Fork heights follow OMBRA_FORK_HEIGHT and OMBRA_FORK_HEIGHT_V3.._V7 when set, as for `ombra start`.';

/** Help for `ombra replay`. */
export const replayHelp = () => helpText(USAGE, SUMMARY, REPLAY_FLAGS);

/** Runs `ombra replay`. */
export async function replayCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, REPLAY_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = flags['data-dir'];
  if (!dataDir) throw new UsageError('--data-dir is required');
  const verifyAll = flags['verify-all'] === true;
  const forkOverrides = forkOverridesFromEnv();
  return withDataDir(
    'replay',
    () => openExistingNode(dataDir, forkOverrides),
    async (node) => {
      const head = node.head();
      const started = performance.now();
      const through = verifyAll ? 0 : Math.min(node.store.verified.mark.height, head.index);
      const bar = progress('replay', head.index, { unit: 'blocks' });
      try {
        await node.runner.resetAll();
        await node.catchUp((height, top) => bar.update(height, top), { verifySignatures: true, assumeValid: !verifyAll });
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
        `replayed ${head.index} blocks in ${seconds.toFixed(2)} s (${rate(head.index)} blocks/s, ${rate(txs)} tx/s); state root ${head.stateRoot} matches\n` +
          (through > 0
            ? `signatures checked above block ${through}; blocks 1..${through} match the digest of what this node verified\n`
            : 'every signature checked\n'),
      );
      return 0;
    },
  );
}
