/** Key files of `start --key-file` and `wallet --keystore`: a plain `{"privateKey"}` file or an encrypted keystore. */
import { readFileSync } from 'node:fs';
import { normalizeAddress } from '../../core/address.ts';
import type { KeyPair } from '../../core/keys.ts';
import { UsageError } from '../args.ts';
import { loadKeyFile } from './genesisFile.ts';
import { decryptKeystore, isKeystore, type Keystore } from '../wallet/keystore.ts';
import { keystorePassword } from '../wallet/password.ts';
import { errorCode } from '../../core/errors.ts';

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

/** A keystore file's JSON (refuses a plain key file: `--keystore` expects encryption). */
function loadKeystore(path: string): Keystore {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`--keystore ${path}: ${errorCode(e) === 'ENOENT' ? 'no such file' : 'not JSON'}`);
  }
  if (!isKeystore(raw)) throw new UsageError(`--keystore ${path} is not a keystore (scrypt + aes-128-ctr JSON)`);
  return raw;
}

/** The key of a keystore file, decrypted with its password (env or terminal). */
export async function readKeystore(path: string): Promise<KeyPair> {
  const store = loadKeystore(path);
  return decryptKeystore(store, await keystorePassword(`keystore ${path}`), `keystore ${path}`);
}

/**
 * The address a keystore file names, read without its password: the address is kept in clear
 * (keystore v3), so looking up an account never needs the secret. The decrypting paths check
 * that it matches the key.
 */
export function keystoreAddress(path: string): string {
  const address = normalizeAddress(loadKeystore(path).address);
  if (!address) throw new UsageError(`--keystore ${path} names no valid address (ox + 40 hex characters)`);
  return address;
}
