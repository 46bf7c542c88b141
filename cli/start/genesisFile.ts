/** Loading genesis and key files. */
import { readFileSync } from 'node:fs';
import { ChainError, errorMessage, errorCode } from '../../core/errors.ts';
import { parseGenesis, type Genesis } from '../../core/genesis.ts';
import { keyPairFromPrivateKey, type KeyPair } from '../../core/keys.ts';
import { UsageError } from '../args.ts';

/** The dev genesis shipped in fixtures/. */
const DEV_GENESIS_PATH = new URL('../../fixtures/dev-genesis.json', import.meta.url).pathname;

function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path}: ${errorCode(e) ?? errorMessage(e)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${what} ${path} is not valid JSON`);
  }
}

/** Reads and validates a genesis file. */
export function loadGenesisFile(path: string): Genesis {
  try {
    return parseGenesis(readJsonFile(path, 'genesis file'));
  } catch (e) {
    if (e instanceof ChainError) throw new UsageError(`${path}: ${e.message}`);
    throw e;
  }
}

/** The dev genesis, with its block time replaced when `blockTimeMs` is given. */
export function devGenesis(blockTimeMs?: number): Genesis {
  const g = loadGenesisFile(DEV_GENESIS_PATH);
  return blockTimeMs === undefined ? g : { ...g, blockTimeMs };
}

/** Reads a key file `{"privateKey": "<64 hex>"}`. */
export function loadKeyFile(path: string): KeyPair {
  const raw = readJsonFile(path, 'key file') as { privateKey?: unknown };
  if (typeof raw !== 'object' || raw === null || typeof raw.privateKey !== 'string' || !/^[0-9a-fA-F]{64}$/.test(raw.privateKey)) {
    throw new UsageError(`key file ${path} must be {"privateKey": "<64 hex characters>"}`);
  }
  return keyPairFromPrivateKey(raw.privateKey.toLowerCase());
}
