/**
 * Answers from JSON already encoded: hot reads keep their body as a string and hand it to Hono
 * as is (no `c.json` re-serialisation, and a handler that does not wait answers synchronously).
 */
import type { Context, TypedResponse } from 'hono';
import type { Json, JsonPieces } from '../queries/schemas/shapes.ts';
import { byteStream } from './contentResponse.ts';
import { streamed } from './streamedAnswer.ts';

/** The headers of a JSON answer (the same `Content-Type` `c.json` sets). */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/json' };

/** A response whose JSON body is a `T` (as `c.json` types its own). */
export type JsonResponse<T> = Response & TypedResponse<T, 200, 'json'>;

/** An answer whose body is `json`, already encoded: typed as what `json` encodes. */
export function jsonAnswer<T>(c: Context, json: Json<T>, headers?: Record<string, string>): JsonResponse<T> {
  // The typed response is Hono's phantom (`c.json` casts the same way): `json` encodes a T.
  const res: Response = c.body(json, 200, headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS);
  return res as JsonResponse<T>;
}

/** Characters encoded at a time: a written piece is at most three times this many bytes. */
const PIECE_CHARS = 16 * 1024;

/** `text` as UTF-8 in pieces of at most PIECE_CHARS characters, never splitting a surrogate pair. */
export function* utf8Pieces(text: string, encoder = new TextEncoder()): Generator<Uint8Array> {
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + PIECE_CHARS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield encoder.encode(text.slice(i, end));
    i = end;
  }
}

/** Bytes of a written piece at most. */
const PIECE_BYTES = 48 * 1024;

/**
 * A JSON answer streamed piece by piece as the socket drains: one piece of `json` (text, or bytes
 * already UTF-8) in memory at a time, written in pieces of at most 48 KiB, so a reader that stops
 * reading holds one block and a piece, not a block's bytes beside its text. A cancel returns
 * `json` at its yield (closing what it reads from).
 */
export function jsonStream<T>(c: Context, json: JsonPieces<T>): JsonResponse<T> {
  const encoder = new TextEncoder();
  async function* bytes(): AsyncGenerator<Uint8Array> {
    // Leaving the for-await (a cancel returns this generator) returns `json` too.
    for await (const piece of json) {
      if (typeof piece === 'string') yield* utf8Pieces(piece, encoder);
      else for (let i = 0; i < piece.byteLength; i += PIECE_BYTES) yield piece.subarray(i, i + PIECE_BYTES);
    }
  }
  // As jsonAnswer: the pieces of `json` encode a T.
  const res = streamed(c.body(byteStream(bytes()), 200, JSON_HEADERS));
  return res as JsonResponse<T>;
}

/**
 * A one-entry cache of an encoded value: `get(fields)` encodes again only when one of `fields`
 * differs from the last call's (compared with ===), so a read that changes with the head costs
 * one encoding per change, not one per request.
 */
export class EncodedOnChange<F extends readonly unknown[], T> {
  private last: F | null = null;
  private json: Json<T> = '';
  private readonly encode: (...fields: F) => T;

  constructor(encode: (...fields: F) => T) {
    this.encode = encode;
  }

  /** The encoding of `encode(...fields)`. */
  get(...fields: F): Json<T> {
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
