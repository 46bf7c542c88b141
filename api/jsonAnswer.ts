/**
 * Answers from JSON already encoded: hot reads keep their body as a string and hand it to Hono
 * as is (no `c.json` re-serialisation, and a handler that does not wait answers synchronously).
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { byteStream } from './contentResponse.ts';

/** The headers of a JSON answer (the same `Content-Type` `c.json` sets). */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json' };

/** An answer whose body is `json`, already encoded. */
export function jsonAnswer(c: Context, json: string, status: ContentfulStatusCode = 200): Response {
  return c.body(json, status, JSON_HEADERS);
}

/**
 * A JSON answer streamed piece by piece as the socket drains: one piece in memory at a time. A
 * cancel returns `json` at its yield (closing what it reads from).
 */
export function jsonStream(c: Context, json: AsyncGenerator<string>): Response {
  const encoder = new TextEncoder();
  async function* bytes(): AsyncGenerator<Uint8Array> {
    // Leaving the for-await (a cancel returns this generator) returns `json` too.
    for await (const piece of json) yield encoder.encode(piece);
  }
  return c.body(byteStream(bytes()), 200, JSON_HEADERS);
}

/**
 * A one-entry cache of an encoded value: `get(fields)` encodes again only when one of `fields`
 * differs from the last call's (compared with ===), so a read that changes with the head costs
 * one encoding per change, not one per request.
 */
export class EncodedOnChange<F extends readonly unknown[]> {
  private last: F | null = null;
  private json = '';
  private readonly encode: (...fields: F) => unknown;

  constructor(encode: (...fields: F) => unknown) {
    this.encode = encode;
  }

  /** The encoding of `encode(...fields)`. */
  get(...fields: F): string {
    if (!this.same(fields)) {
      this.json = JSON.stringify(this.encode(...fields));
      this.last = fields;
    }
    return this.json;
  }

  private same(fields: F): boolean {
    const last = this.last;
    if (last === null || last.length !== fields.length) return false;
    for (let i = 0; i < fields.length; i++) if (fields[i] !== last[i]) return false;
    return true;
  }
}
