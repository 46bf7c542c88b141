/** Key files of `start --key-file` and `wallet --keystore`: a plain `{"privateKey"}` file or an encrypted keystore. */
import { readFileSync } from 'node:fs';
import type { KeyPair } from '../core/keys.ts';
import { UsageError } from './args.ts';
import { loadKeyFile } from './genesisFile.ts';
import { decryptKeystore, isKeystore } from './keystore.ts';
import { keystorePassword } from './password.ts';

/** Reads a key file; a keystore (told by its JSON shape) asks for its password (env or terminal). */
export async function readKeyFile(path: string): Promise<KeyPair> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // The plain loader names what is wrong (missing file, not JSON, wrong shape).
    return loadKeyFile(path);
  }
  if (!isKeystore(raw)) return loadKeyFile(path);
  return decryptKeystore(raw, await keystorePassword(`keystore ${path}`), `keystore ${path}`);
}

/** The key of a keystore file (refuses a plain key file: `--keystore` expects encryption). */
export async function readKeystore(path: string): Promise<KeyPair> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--keystore ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not JSON'}`);
  }
  if (!isKeystore(raw)) throw new UsageError(`--keystore ${path} is not a keystore (scrypt + aes-128-ctr JSON)`);
  return decryptKeystore(raw, await keystorePassword(`keystore ${path}`), `keystore ${path}`);
}
