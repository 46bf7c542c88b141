/** The sink's typed errors and its one-line accounts of failures: each is a line an operator can act on. */
import { OmbraApiError, OmbraUnreachable } from '../client/http.ts';
import { ChainError, errorCode, errorMessage } from '../core/errors.ts';

/** What went wrong, for scripts and tests. */
export type SinkErrorCode =
  | 'SCHEMA_TOO_NEW'
  | 'OTHER_CHAIN'
  | 'DB_AUTH'
  | 'DB_CONFIG'
  | 'NODE_REFUSED'
  | 'NODE_INCONSISTENT'
  | 'CHAIN_MOVED'
  | 'NODE_BEHIND'
  | 'FROM_HEIGHT_PAST_CURSOR';

/** A failure the sink does not retry (the operator must change something), except CHAIN_MOVED (a reorganisation seen mid-read: resumed from at once) and NODE_BEHIND (retried with backoff). */
export class SinkError extends Error {
  readonly code: SinkErrorCode;
  constructor(code: SinkErrorCode, message: string) {
    super(message);
    this.name = 'SinkError';
    this.code = code;
  }
}

// SQLSTATE classes of errors no retry fixes: wrong password or role, missing database, bad schema rights.
const FATAL_SQLSTATE: Record<string, [SinkErrorCode, string]> = {
  '28P01': ['DB_AUTH', 'wrong password'],
  '28000': ['DB_AUTH', 'authentication refused'],
  '3D000': ['DB_CONFIG', 'no such database'],
  '42501': ['DB_CONFIG', 'permission denied'],
};

/**
 * The SinkError a PostgreSQL error stands for, or null when it is transient (connection refused or
 * lost, server shutting down or starting, serialization): those are retried with backoff.
 */
export function fatalDbError(e: unknown, where: string): SinkError | null {
  const code = errorCode(e);
  if (code === undefined) return null;
  const known = FATAL_SQLSTATE[code];
  if (!known) return null;
  return new SinkError(known[0], `database at ${where}: ${known[1]} (${errorMessage(e)})`);
}

/** host:port (and database) of a connection string, never its password. */
export function dbWhere(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'the --db URL';
  }
}

/** One line for a transient failure (`db`: the connection string, named without its password). */
export function describeFailure(e: unknown, db: string): string {
  const msg = errorMessage(e);
  if (e instanceof OmbraUnreachable) return `node unreachable (${msg})`;
  if (e instanceof SinkError) return msg;
  if (e instanceof ChainError) return `the node's chain moved under a read (${msg})`;
  if (e instanceof OmbraApiError) return `node refused a read: ${e.status} ${e.code} ${msg}`;
  const code = errorCode(e) ?? '';
  // SQLSTATE classes 08 (connection) and 57 (shutdown, starting up), socket errors, a dropped connection.
  const lost = /^(08|57)/.test(code) || /^E[A-Z]+$/.test(code) || /Connection terminated|connection/i.test(msg);
  return `${lost ? 'database unreachable' : `database error${code ? ` ${code}` : ''}`} at ${dbWhere(db)} (${msg})`;
}
