/**
 * The one request-body reader: every JSON-accepting route reads its body here, under a byte
 * limit, with the API's errors (413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE, 400 INVALID_JSON).
 * A body is JSON when its `Content-Type` is `application/json` or `application/*+json`, or when
 * it has none (curl's `--data-binary` and small scripts send none); any other type is refused,
 * `text/plain` included, which also keeps a cross-site form or a "simple" browser request
 * (sent without a preflight) from writing. An empty body is no body, whatever its type.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ChainError } from '../core/errors.ts';

/** Largest body of a key or alert request. */
export const SMALL_BODY_BYTES = 4096;

/** A body-size limit with the API's 413 answer (checked before a route reads anything). */
export function limitBody(maxBytes: number): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    // The rest of the body is never read: the connection closes after the answer, and says so.
    onError: (c) => c.json({ error: `body is larger than ${maxBytes} bytes`, code: 'PAYLOAD_TOO_LARGE' }, 413, { Connection: 'close' }),
  });
}

/** True for a JSON object (not an array, not null): a body or a field whose keys are read. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** True for a JSON media type (`application/json`, `application/*+json`, any parameters), or none. */
function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return true;
  const type = header.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Parses the request body as JSON; UNSUPPORTED_MEDIA_TYPE for another type, INVALID_JSON when it does not parse. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  checkJsonType(c);
  return parseJson(text);
}

/** The JSON body, or undefined when it is empty. */
export async function readOptionalJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return undefined;
  checkJsonType(c);
  return parseJson(text);
}

// Checked once the body is read, so the refused request leaves its connection usable.
function checkJsonType(c: Context): void {
  const type = c.req.header('Content-Type');
  if (!isJsonContentType(type))
    throw new ChainError('UNSUPPORTED_MEDIA_TYPE', `body must be JSON (Content-Type: application/json), not ${type?.slice(0, 100)}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ChainError('INVALID_JSON', 'body is not valid JSON');
  }
}
