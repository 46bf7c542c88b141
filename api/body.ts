/**
 * The one request-body reader: every JSON-accepting route reads its body here, under a byte
 * limit, with the API's errors (413 PAYLOAD_TOO_LARGE, 400 INVALID_JSON).
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

/** Parses the request body as JSON; INVALID_JSON when it is not. */
export async function readJson(c: Context): Promise<unknown> {
  return parseJson(await c.req.text());
}

/** The JSON body, or undefined when it is empty. */
export async function readOptionalJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  return text.trim() === '' ? undefined : parseJson(text);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ChainError('INVALID_JSON', 'body is not valid JSON');
  }
}
