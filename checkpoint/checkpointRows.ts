/**
 * The shape of every row a checkpoint installs (checkpoint/checkpointInstall.ts), checked as it streams
 * in: each value is JSON, and the rows the node reads at open (blocks, accounts, the read models'
 * saved positions, the undo log, meta) have the shape it expects, under the key that names them. A
 * row that fails is refused with its keyspace, key and reason before anything is kept, so a
 * crafted file cannot install rows that break the node at start. What a row says (a balance, a
 * block's contents) is proven only by the background verification (checkpoint/checkpointVerifier.ts).
 */
import { ACCOUNT_ROW_PREFIX } from '../core/accountRow.ts';
import { isAddress } from '../core/address.ts';
import { checkBlockShape } from '../core/block.ts';
import { heightKey, isBigIntString, isHex, isUint } from '../core/encoding.ts';
import { CheckpointFault } from './checkpointFile.ts';
import { errorMessage } from '../core/errors.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const HEIGHT_KEY = /^[0-9]{12}$/;

/** Why an account row's value is not one (or null): decimal strings for amounts, a whole nonce. */
function accountFault(v: unknown): string | null {
  if (!isObject(v)) return 'not an object';
  if (!isBigIntString(v.b) || !isBigIntString(v.c) || !isBigIntString(v.u)) return 'an amount is not a decimal string';
  if (!isUint(v.n)) return 'the nonce is not a whole number';
  if (v.m !== undefined && typeof v.m !== 'string') return 'the miner id is not a string';
  for (const k of Object.keys(v)) if (!['b', 'n', 'c', 'u', 'm'].includes(k)) return `unknown field ${k.slice(0, 40)}`;
  return null;
}

/** Why the row `space`/`key` with the parsed `value` is malformed, or null. */
function rowFault(space: string, key: string, value: unknown): string | null {
  switch (space) {
    case 'meta':
      if (key === 'head') return isObject(value) && isUint(value.index) && isHex(value.hash, 64) ? null : 'not {index, hash}';
      return isObject(value) ? null : 'not an object';
    case 'blocks': {
      if (!HEIGHT_KEY.test(key)) return 'the key is not a height';
      try {
        const b = checkBlockShape(value);
        return heightKey(b.index) === key ? null : `block ${b.index} under another height`;
      } catch (e) {
        return errorMessage(e);
      }
    }
    case 'undo':
      return HEIGHT_KEY.test(key) ? (isObject(value) ? null : 'not an object') : 'the key is not a height';
    case 'checkpoints':
      return isObject(value) && isUint(value.height) ? null : 'not a read model checkpoint {height, ...}';
    case 'p:accounts':
      if (key.startsWith(ACCOUNT_ROW_PREFIX)) {
        if (!isAddress(key.slice(ACCOUNT_ROW_PREFIX.length))) return 'the key is not an account address';
        return accountFault(value);
      }
      return null;
    default:
      return null;
  }
}

/** The parsed value of a row, or a CheckpointFault naming row `n` and what is wrong with it. */
export function checkRow(n: number, space: string, key: string, bytes: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    throw new CheckpointFault(`row ${n} (${space} ${key.slice(0, 40)}) is not JSON: ${errorMessage(e).slice(0, 100)}`);
  }
  const why = rowFault(space, key, value);
  if (why) throw new CheckpointFault(`row ${n} (${space} ${key.slice(0, 40)}) is malformed: ${why}`);
  return value;
}
