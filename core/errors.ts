/** Typed errors: every refusal in the node carries one of these codes; api/ maps codes to statuses. */

/** Every error code the node answers with. */
export type ErrorCode =
  | 'INVALID_JSON'
  | 'PAYLOAD_TOO_LARGE'
  | 'INVALID_PARAMS'
  | 'FORK_NOT_ACTIVE'
  | 'HASH_MISMATCH'
  | 'VALIDATION_FAILED'
  | 'INVALID_SIGNATURE'
  | 'DUPLICATE_TX'
  | 'STALE_NONCE'
  | 'NONCE_GAP'
  | 'INSUFFICIENT_BALANCE'
  | 'INSUFFICIENT_STORAGE'
  | 'MEMPOOL_FULL'
  | 'UNAUTHORIZED'
  | 'IP_BANNED'
  | 'NOT_FOUND'
  | 'RATE_LIMITED'
  | 'INTERNAL'
  | 'SYNCING'
  | 'NO_PEERS'
  | 'INVALID_BLOCK'
  | 'SLOW_CONSUMER'
  | 'RANGE_NOT_SATISFIABLE'
  | 'METHOD_NOT_ALLOWED'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'USER_CONTENT_AS_SCRIPT'
  | 'DISK_FULL';

/** An expected refusal with a machine-readable code and a human message. */
export class ChainError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ChainError';
    this.code = code;
  }
}

/**
 * Refuses a transaction with VALIDATION_FAILED. A declared `never` function (not an arrow in a
 * const) so that TypeScript narrows after it: `if (!task) refuse('...'); task.status` needs no `!`.
 */
export function refuse(message: string): never {
  throw new ChainError('VALIDATION_FAILED', message);
}

/**
 * Refuses with VALIDATION_FAILED unless `condition` holds, and narrows like an `if`:
 * `refuseUnless(upload, 'not started'); upload.owner`. Its message is built before the test:
 * keep it to reads whose message is cheap (refuse in an `if` in a loop).
 */
export function refuseUnless(condition: unknown, message: string): asserts condition {
  if (!condition) throw new ChainError('VALIDATION_FAILED', message);
}

/**
 * A value the caller has already made sure of (the record its `check` read, before `apply`; an
 * entry set just above). Its absence is a bug in the node, never a refusal: it throws as one.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

/**
 * The message of anything thrown: an Error's message, else the value as text. The one way a
 * `catch (e)` reads its error (a thrown value is `unknown`; `(e as Error).message` is a cast that
 * lies when a library throws a string or an object).
 */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string') return e.message;
  return String(e);
}

/** The `code` of a Node system error (`ENOENT`, `ENOSPC`, `ECONNREFUSED`...), or undefined. */
export function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

/** `e` and the errors of its `cause` chain, `depth` links at most (a library may wrap the one that matters). */
export function errorChain(e: unknown, depth = 5): unknown[] {
  const chain: unknown[] = [];
  for (let x = e; x && chain.length < depth; x = typeof x === 'object' && 'cause' in x ? x.cause : undefined) chain.push(x);
  return chain;
}
