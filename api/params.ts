/** Parsers for path and query parameters; each refuses bad input with INVALID_PARAMS. */
import { normalizeAddress } from '../core/address.ts';
import { ChainError } from '../core/errors.ts';

const bad = (msg: string): never => {
  throw new ChainError('INVALID_PARAMS', msg);
};

/** A block height: a plain non-negative decimal integer. */
export function parseHeight(s: string | undefined, name = 'index'): number {
  if (s === undefined || !/^(0|[1-9][0-9]{0,14})$/.test(s)) bad(`${name} must be a non-negative integer`);
  return Number(s);
}

/** A 64-character hex hash, any case, returned lowercase. */
export function parseHash(s: string | undefined, name = 'hash'): string {
  if (s === undefined || !/^[0-9a-fA-F]{64}$/.test(s)) bad(`${name} must be 64 hex characters`);
  return (s as string).toLowerCase();
}

/** An address, any case, returned lowercase. */
export function parseAddress(s: string | undefined, name = 'address'): string {
  const a = s === undefined || s.length > 42 ? null : normalizeAddress(s);
  if (!a) bad(`${name} must be an address: ox + 40 hex characters`);
  return a as string;
}

/** `limit`: default 30, clamped to `max`; non-integers and negatives are refused. */
export function parseLimit(s: string | undefined, max = 100, def = 30): number {
  if (s === undefined || s === '') return Math.min(def, max);
  if (!/^[0-9]{1,15}$/.test(s)) bad('limit must be a non-negative integer');
  return Math.min(Number(s), max);
}

/** `cursor`: a `nextCursor` an earlier page answered (a non-negative integer), or absent. */
export function parseCursor(s: string | undefined): number | undefined {
  if (s === undefined || s === '') return undefined;
  if (!/^[0-9]{1,15}$/.test(s)) bad('cursor must be a nextCursor from an earlier page');
  return Number(s);
}

/** `offset`: default 0. */
export function parseOffset(s: string | undefined): number {
  if (s === undefined || s === '') return 0;
  if (!/^[0-9]{1,15}$/.test(s)) bad('offset must be a non-negative integer');
  return Number(s);
}
