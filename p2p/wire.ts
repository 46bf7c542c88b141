/** Bytes on the wire: JSON messages with size bounds, and whole-stream request/response. */
import type { Stream } from '@libp2p/interface';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** JSON to bytes. */
export function encode(v: unknown): Uint8Array {
  return enc.encode(JSON.stringify(v));
}

/** JSON text already serialised, to bytes. */
export function encodeText(json: string): Uint8Array {
  return enc.encode(json);
}

/** Bytes to JSON, or undefined when malformed or above `max` bytes. */
export function decode(bytes: Uint8Array, max: number): unknown {
  if (bytes.byteLength > max) return undefined;
  try {
    return JSON.parse(dec.decode(bytes));
  } catch {
    return undefined;
  }
}

/** A peer sent more bytes than the protocol allows (misbehaviour, unlike a dropped stream). */
export class OversizedError extends Error {
  constructor(max: number) {
    super(`sent more than ${max} bytes`);
    this.name = 'OversizedError';
  }
}

/** Reads a whole stream, failing with OversizedError above `max` bytes (the stream is aborted). */
export async function readAll(stream: Stream, max: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream.source) {
    const bytes = chunk.subarray();
    size += bytes.byteLength;
    if (size > max) {
      const e = new OversizedError(max);
      stream.abort(e);
      throw e;
    }
    parts.push(bytes);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
