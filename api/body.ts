/** Reading JSON request bodies with clear errors. */
import type { Context } from 'hono';
import { ChainError } from '../core/errors.ts';

/** Parses the request body as JSON; INVALID_JSON when it is not. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ChainError('INVALID_JSON', 'body is not valid JSON');
  }
}
