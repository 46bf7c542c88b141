/**
 * Secrets shared by the nodes of a read tier, read from files named by flags: the API key secret
 * (`--api-key-secret-file`, services/tierKeys.ts) and the proxy token (`--trusted-proxy-token-file`,
 * api/clientIp.ts). A file other users may read is refused, like ssh refuses such a key.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { MIN_TIER_SECRET, TierKeys } from '../../services/tierKeys.ts';
import { UsageError } from '../args.ts';
import { errorMessage } from '../../core/errors.ts';

/** The trimmed text of a secret file named by `--flag`: at least 32 characters, 0600 or tighter. */
export function readSecretFile(path: string, flag: string): string {
  let text: string;
  try {
    if ((statSync(path).mode & 0o077) !== 0) throw new UsageError(`--${flag} ${resolve(path)} may be read by other users: chmod 600 it`);
    text = readFileSync(path, 'utf8').trim();
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`--${flag}: cannot read ${resolve(path)} (${errorMessage(e)})`);
  }
  if (text.length < MIN_TIER_SECRET || /\s/.test(text))
    throw new UsageError(
      `--${flag} ${resolve(path)} must hold one secret of at least ${MIN_TIER_SECRET} characters, e.g. \`openssl rand -hex 32\``,
    );
  return text;
}

/** The tier key issuer of `--api-key-secret-file`, or undefined when the flag is not given. */
export function tierKeysFrom(path: string | undefined): TierKeys | undefined {
  return path === undefined ? undefined : new TierKeys(Buffer.from(readSecretFile(path, 'api-key-secret-file')));
}
