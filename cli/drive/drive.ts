/**
 * `ombra drive push --site ID --dir DIR [--alias A] [--url URL] [--api-key KEY]`: uploads a folder to an
 * on-chain web drive as one release and activates it (cli/drive/drivePush.ts does the work). The key is
 * chosen as `wallet send` chooses it: --index N of --mnemonic / OMBRA_MNEMONIC / the dev mnemonic.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { OmbraApiError, OmbraClient, OmbraUnreachable, Wallet } from '../../client/index.ts';
import { flagSpecs, API_KEY_FLAG, apiKeyFlag, helpText, requiredIntFlag, parseFlags, UsageError, URL_FLAG } from '../args.ts';
import { localFiles } from './driveFiles.ts';
import { drivePush } from './drivePush.ts';
import { parseUrlFlag, walletKey } from '../wallet/wallet.ts';
import { INDEX_FLAG, MNEMONIC_FLAG } from '../wallet/walletFlags.ts';

const PUSH_FLAGS = flagSpecs({
  site: { type: 'string', env: 'OMBRA_SITE', help: 'site id, 3-64 of [A-Za-z0-9_-] (registered on first push)' },
  dir: { type: 'string', help: 'the folder to publish (dot files and symbolic links are skipped)' },
  alias: { type: 'string', help: 'serve the site at /web/ALIAS/ (a DNS label of 3-63 characters; first come)' },
  name: { type: 'string', help: "the site's name when it is registered (default: the folder's name)" },
  fee: { type: 'string', env: 'OMBRA_FEE', default: '0', help: 'fee of each transaction in micro-units (from fork 7 claims need 1000)' },
  index: INDEX_FLAG,
  mnemonic: MNEMONIC_FLAG,
  url: URL_FLAG,
  'api-key': API_KEY_FLAG,
  'timeout-s': { type: 'string', env: 'OMBRA_WAIT_TIMEOUT_S', default: '120', help: 'seconds to wait for each step to be confirmed' },
  json: { type: 'boolean', help: 'print the outcome as JSON' },
});

const USAGE = 'ombra drive push --site ID --dir DIR [--alias A] [--url URL] [--api-key KEY] [--index N] [--fee MICRO]';
const SUMMARY =
  'Publishes a folder as one release of an on-chain web drive and activates it: registers the site\n' +
  'if it is new, uploads only the files the drive does not hold yet (an identical file costs nothing),\n' +
  'with a progress bar, then publishes and activates the release. Files reserve storage capacity,\n' +
  'which block producers earn (4096 bytes a block) and STORAGE_TRANSFER moves.';

/** Help for `ombra drive [push]`. */
export function driveHelp(_argv: string[]): string {
  return helpText(USAGE, SUMMARY, PUSH_FLAGS);
}

/** Runs `ombra drive push ...`. */
export async function driveCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'push') throw new UsageError(sub ? `unknown drive subcommand ${sub}` : 'a subcommand is required: push');
  const { flags, positionals } = parseFlags(rest, PUSH_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const siteId = String(flags.site ?? '');
  if (!/^[A-Za-z0-9_-]{3,64}$/.test(siteId)) throw new UsageError('--site must be 3-64 of [A-Za-z0-9_-]');
  if (flags.dir === undefined) throw new UsageError('--dir is required');
  const dir = resolve(String(flags.dir));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--dir ${dir} is not a folder`);
  const alias = flags.alias === undefined ? undefined : String(flags.alias);
  if (alias !== undefined && !/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/.test(alias))
    throw new UsageError('--alias must be a DNS label of 3-63 lowercase letters, digits and -');
  const fee = String(flags.fee);
  if (!/^(0|[1-9][0-9]{0,29})$/.test(fee)) throw new UsageError('--fee must be a whole number of micro-units');
  const name = String(flags.name ?? basename(dir)).slice(0, 128) || siteId;
  const timeoutS = requiredIntFlag(flags, 'timeout-s', 1, 86_400);
  const url = parseUrlFlag(flags);
  const { files, skipped } = localFiles(dir, siteId);
  if (files.length === 0) throw new UsageError(`--dir ${dir} holds no non-empty files`);
  for (const p of skipped) process.stderr.write(`skipping ${p}: empty files are not uploaded\n`);
  const { key } = walletKey(flags);
  const client = new OmbraClient({ url, apiKey: apiKeyFlag(flags) });
  const say = (line: string) => process.stderr.write(`${line}\n`);
  try {
    const r = await drivePush({
      client,
      wallet: new Wallet(client, key),
      siteId,
      name,
      files,
      alias,
      fee,
      timeoutMs: timeoutS * 1000,
      say,
    });
    const page = alias ? client.webPageUrl(alias) : null;
    if (flags.json) process.stdout.write(`${JSON.stringify({ siteId, ...r, url: page })}\n`);
    else {
      process.stdout.write(`release:   ${r.releaseId}${r.published ? '' : ' (already published)'}\n`);
      process.stdout.write(`files:     ${r.uploaded.length} uploaded (${r.bytesSent} bytes), ${r.unchanged.length} unchanged\n`);
      process.stdout.write(`active:    ${r.activated ? 'activated' : 'was already active'}\n`);
      if (page) process.stdout.write(`url:       ${page}\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof OmbraApiError) process.stderr.write(`error ${e.code}: ${e.message}\n`);
    else if (e instanceof OmbraUnreachable || (e instanceof Error && /^(not confirmed|site )/.test(e.message)))
      process.stderr.write(`${e.message}\n`);
    else throw e;
    return 1;
  }
}
