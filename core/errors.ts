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
  | 'INVALID_BLOCK'
  | 'SLOW_CONSUMER'
  | 'RANGE_NOT_SATISFIABLE';

/** An expected refusal with a machine-readable code and a human message. */
export class ChainError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ChainError';
    this.code = code;
  }
}
