/**
 * `ombra keys create --data-dir DIR --tier 2 [--label L]`: the operator issues a key (any tier)
 * straight into the data dir's `local:keys` sublevel. LevelDB allows one process per data dir,
 * so this refuses, clearly, while a node runs on it. The key is printed once, on stdout.
 */
import { ApiKeyStore } from '../services/apiKeys.ts';
import { MAX_LABEL } from '../services/alerts/alertParams.ts';
import { helpText, parseFlags, requiredIntFlag, UsageError, type FlagSpec } from './args.ts';
import { openExistingStore, withDataDir } from './dataDir.ts';

const KEYS_FLAGS: Record<string, FlagSpec> = {
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the node (the node must be stopped)' },
  tier: { type: 'string', env: 'OMBRA_KEY_TIER', default: '2', help: 'tier of the key: 1 (free) or 2 (paid)' },
  label: { type: 'string', env: 'OMBRA_KEY_LABEL', default: '', help: `label shown in key listings (at most ${MAX_LABEL} characters)` },
  json: { type: 'boolean', env: 'OMBRA_KEY_JSON', help: 'print {id, key, tier, label, createdAt} as JSON' },
};

const USAGE = 'ombra keys create --data-dir DIR --tier 2 [--label L] [--json]';
const SUMMARY = "Issues an API key into a stopped node's data dir and prints it once (only its hash is stored).";

/** Help for `ombra keys`. */
export const keysHelp = () => helpText(USAGE, SUMMARY, KEYS_FLAGS);

/** Runs `ombra keys`. */
export async function keysCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, KEYS_FLAGS);
  if (positionals[0] !== 'create' || positionals.length > 1)
    throw new UsageError(positionals[0] ? `unknown keys subcommand ${positionals[0]}` : 'missing subcommand: keys create');
  const dataDir = flags['data-dir'] as string | undefined;
  if (!dataDir) throw new UsageError('--data-dir is required');
  const tier = requiredIntFlag(flags, 'tier', 1, 2);
  const label = flags.label as string;
  if (label.length > MAX_LABEL || /[\x00-\x1f\x7f]/.test(label))
    throw new UsageError(`--label must be at most ${MAX_LABEL} characters, without control characters`);
  return withDataDir(
    'keys',
    () => openExistingStore(dataDir),
    async (store) => {
      const keys = await new ApiKeyStore(store).load();
      const { record, key } = await keys.create({ tier, label, createdBy: 'operator' });
      if (flags.json)
        process.stdout.write(
          `${JSON.stringify({ id: record.id, key, tier: record.tier, label: record.label, createdAt: record.createdAt })}\n`,
        );
      else {
        process.stdout.write(`${key}\n`);
        process.stderr.write(
          `key ${record.id} (tier ${tier}${label ? `, label ${JSON.stringify(label)}` : ''}) created; it is shown only this once\n`,
        );
      }
      await keys.stop();
      return 0;
    },
  );
}
