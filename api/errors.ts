/** One place maps every error to `{error, code}` and an HTTP status. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ChainError, type ErrorCode } from '../core/errors.ts';

/** HTTP status of each error code. */
export const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  INVALID_JSON: 400,
  PAYLOAD_TOO_LARGE: 413,
  INVALID_PARAMS: 400,
  FORK_NOT_ACTIVE: 403,
  HASH_MISMATCH: 400,
  VALIDATION_FAILED: 422,
  INVALID_SIGNATURE: 422,
  DUPLICATE_TX: 409,
  STALE_NONCE: 409,
  NONCE_GAP: 422,
  INSUFFICIENT_BALANCE: 400,
  INSUFFICIENT_STORAGE: 400,
  MEMPOOL_FULL: 503,
  UNAUTHORIZED: 401,
  IP_BANNED: 403,
  NOT_FOUND: 404,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SYNCING: 503,
  // A network node no peer would hear: the transaction was not kept, another node can take it.
  NO_PEERS: 503,
  INVALID_BLOCK: 422,
  // Only ever sent inside a stream (SSE `error` event, WebSocket close reason); 429 if it
  // ever reached a status line: the consumer was too slow for the rate it asked for.
  SLOW_CONSUMER: 429,
  // A byte range outside stored content (blobs, NFT files, drive files); sent with `Content-Range: bytes */size`.
  RANGE_NOT_SATISFIABLE: 416,
  // A known path asked with a method it does not take; sent with `Allow`.
  METHOD_NOT_ALLOWED: 405,
  // A body on a JSON route sent as another media type (text/plain, a form).
  UNSUPPORTED_MEDIA_TYPE: 415,
  // One of the node's own pages asked for user bytes as script or style (api/contentResponse.ts).
  USER_CONTENT_AS_SCRIPT: 403,
  // The data dir failed a write (a full disk): the node stopped writing until it restarts with space (node/store/storageFence.ts).
  DISK_FULL: 503,
};

/** Answers a ChainError as JSON; anything else is a 500 INTERNAL that hides the details. */
export function onError(err: Error, c: Context, log?: (e: Error) => void) {
  if (err instanceof ChainError) {
    // Behind its peers for now: another node, or this one a block time later, can take it.
    if (err.code === 'SYNCING') c.header('Retry-After', '1');
    return c.json({ error: err.message, code: err.code }, STATUS[err.code]);
  }
  log?.(err);
  return c.json({ error: 'internal error', code: 'INTERNAL' }, 500);
}

/** Throws NOT_FOUND. */
export function notFound(what: string): never {
  throw new ChainError('NOT_FOUND', `${what} not found`);
}
