/**
 * `ombra keys create | list | revoke --data-dir DIR`: the operator's API keys. While a node runs
 * on DIR they go through its admin socket (api/adminServer.ts), so a new key works on the next
 * request and a revoked one fails at once; on a stopped data dir they open its `local:keys`
 * sublevel directly. A created key is printed once, on stdout; only its hash is stored.
 */
import { adminKeyView } from '../api/adminServer.ts';
import { present } from '../core/errors.ts';
import { tierKeysFrom } from './start/secretFile.ts';
import { MAX_LABEL } from '../services/alerts/alertParams.ts';
import { ApiKeyStore } from '../services/apiKeys.ts';
import { adminJson } from './adminClient.ts';
import { flagSpecs, type FlagSpec, type FlagSpecs, type Flags, helpText, parseFlags, requiredIntFlag, UsageError } from './args.ts';
import { CliFault, openExistingStore, withDataDir } from '../launch/dataDir.ts';

const DATA_DIR = { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the node (running or stopped)' } satisfies FlagSpec;
const JSON_FLAG = { type: 'boolean', env: 'OMBRA_KEY_JSON', help: 'print JSON' } satisfies FlagSpec;
const SECRET_FLAG = {
  type: 'string',
  env: 'OMBRA_API_KEY_SECRET_FILE',
  help: "on a stopped data dir: the read tier's secret, so the key is valid on every node of the tier (a running node uses its own)",
} satisfies FlagSpec;

/** The flags of `keys create`, a superset of the others'. */
const CREATE_FLAGS = flagSpecs({
  'data-dir': DATA_DIR,
  tier: { type: 'string', env: 'OMBRA_KEY_TIER', default: '2', help: 'tier of the key: 1 (free) or 2 (paid)' },
  label: { type: 'string', env: 'OMBRA_KEY_LABEL', default: '', help: `label shown in key listings (at most ${MAX_LABEL} characters)` },
  'api-key-secret-file': SECRET_FLAG,
  json: JSON_FLAG,
});

const SUBCOMMANDS = {
  create: {
    usage: 'ombra keys create --data-dir DIR [--tier 2] [--label L] [--api-key-secret-file F] [--json]',
    summary: 'Issues an API key and prints it once (only its hash is stored); a running node accepts it on the next request.',
    flags: CREATE_FLAGS,
  },
  list: {
    usage: 'ombra keys list --data-dir DIR [--json]',
    summary: 'Lists every active API key (id, tier, label, created, last used, registered by); never a secret.',
    flags: { 'data-dir': DATA_DIR, json: JSON_FLAG },
  },
  revoke: {
    usage: 'ombra keys revoke KEY_ID --data-dir DIR',
    summary: 'Revokes a key and every key registered with it; a running node refuses them on the next request.',
    flags: { 'data-dir': DATA_DIR, json: JSON_FLAG },
  },
} satisfies Record<string, { usage: string; summary: string; flags: FlagSpecs }>;

/** Whether `name` is a subcommand of `ombra keys`. */
const isSub = (name: string | undefined): name is keyof typeof SUBCOMMANDS => name !== undefined && Object.hasOwn(SUBCOMMANDS, name);

/** Help for `ombra keys [sub]`. */
export function keysHelp(argv: string[]): string {
  const name = argv[0];
  if (isSub(name)) return helpText(SUBCOMMANDS[name].usage, SUBCOMMANDS[name].summary, SUBCOMMANDS[name].flags);
  return `Usage: ombra keys <create | list | revoke> --data-dir DIR [options]\n\n${Object.values(SUBCOMMANDS)
    .map((s) => `  ${s.usage}`)
    .join('\n')}\n\nWorks on a running node (through DIR/admin.sock) and on a stopped data dir.\n`;
}

type KeyRow = ReturnType<typeof adminKeyView>;
type Created = { id: string; key: string; tier: number; label: string; createdAt: number };

/** The three operations, against a running node's socket or a stopped data dir's store. */
interface KeyOps {
  create(tier: number, label: string): Promise<Created>;
  list(): Promise<KeyRow[]>;
  revoke(id: string): Promise<number>;
}

/** Runs `ombra keys`. */
export async function keysCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!isSub(sub)) throw new UsageError(sub ? `unknown keys subcommand ${sub}` : 'missing subcommand: keys create | list | revoke');
  const parsed = parseFlags(rest, SUBCOMMANDS[sub].flags);
  // Every subcommand's flags are among create's: the others' are simply absent.
  const flags: Partial<Flags<typeof CREATE_FLAGS>> = parsed.flags;
  const positionals = parsed.positionals;
  const dataDir = flags['data-dir'];
  if (!dataDir) throw new UsageError('--data-dir is required');
  if (sub === 'revoke' && positionals.length !== 1) throw new UsageError('keys revoke takes one key id (see `ombra keys list`)');
  if (sub !== 'revoke' && positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const run = (ops: KeyOps) => runKeys(sub, flags, positionals[0], ops);
  try {
    // A running node answers on its socket; otherwise open the stopped data dir.
    const online = await adminJson<{ keys: KeyRow[] }>(dataDir, 'GET', '/admin/keys');
    if (online)
      return await run({
        create: async (tier, label) =>
          present(await adminJson<Created>(dataDir, 'POST', '/admin/keys', { tier, label }), 'the created key'),
        list: async () => present(await adminJson<{ keys: KeyRow[] }>(dataDir, 'GET', '/admin/keys'), 'the key list').keys,
        revoke: async (id) => {
          const got = await adminJson<{ revoked: number }>(dataDir, 'DELETE', `/admin/keys/${encodeURIComponent(id)}`).catch((e) => {
            if (e instanceof CliFault && /NOT_FOUND/.test(e.message)) return { revoked: 0 };
            throw e;
          });
          return present(got, 'the revocation').revoked;
        },
      });
  } catch (e) {
    if (e instanceof CliFault) {
      process.stderr.write(`ombra keys: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  return withDataDir(
    'keys',
    () => openExistingStore(dataDir),
    async (store) => {
      const tierKeys = tierKeysFrom(flags['api-key-secret-file']);
      const keys = await new ApiKeyStore(store, tierKeys ? { tierKeys } : {}).load();
      try {
        return await run({
          create: async (tier, label) => {
            const { record, key } = await keys.create({ tier, label, createdBy: 'operator' });
            return { id: record.id, key, tier: record.tier, label: record.label, createdAt: record.createdAt };
          },
          list: async () =>
            keys
              .all()
              .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id))
              .map(adminKeyView),
          revoke: (id) => keys.revoke(id),
        });
      } finally {
        await keys.stop();
      }
    },
  );
}

async function runKeys(sub: string, flags: Partial<Flags<typeof CREATE_FLAGS>>, id: string | undefined, ops: KeyOps): Promise<number> {
  const json = flags.json === true;
  if (sub === 'create') {
    const tier = requiredIntFlag(flags, 'tier', 1, 2);
    const label = flags.label ?? '';
    if (label.length > MAX_LABEL || /[\x00-\x1f\x7f]/.test(label))
      throw new UsageError(`--label must be at most ${MAX_LABEL} characters, without control characters`);
    const made = await ops.create(tier, label);
    if (json) process.stdout.write(`${JSON.stringify(made)}\n`);
    else {
      process.stdout.write(`${made.key}\n`);
      process.stderr.write(
        `key ${made.id} (tier ${made.tier}${label ? `, label ${JSON.stringify(label)}` : ''}) created; it is shown only this once\n`,
      );
    }
    return 0;
  }
  if (sub === 'list') {
    const rows = await ops.list();
    if (json) process.stdout.write(`${JSON.stringify({ keys: rows })}\n`);
    else if (!rows.length) process.stderr.write('no active keys\n');
    else
      for (const r of rows)
        process.stdout.write(
          `${r.id}  tier ${r.tier}  created ${new Date(r.createdAt).toISOString()}  last used ${r.lastUsedAt ? new Date(r.lastUsedAt).toISOString() : 'never'}  by ${r.createdBy}${r.label ? `  ${JSON.stringify(r.label)}` : ''}\n`,
        );
    return 0;
  }
  if (id === undefined) throw new UsageError('keys revoke takes one key id (see `ombra keys list`)');
  const revoked = await ops.revoke(id);
  if (!revoked) throw new CliFault(`no active key ${id} (see \`ombra keys list\`)`);
  if (json) process.stdout.write(`${JSON.stringify({ id, revoked })}\n`);
  else process.stderr.write(`revoked ${id}${revoked > 1 ? ` and ${revoked - 1} key(s) registered with it` : ''}\n`);
  return 0;
}
