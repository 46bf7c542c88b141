/** Bytes on the wire: JSON messages with size bounds, and whole-stream request/response. */
import type { Stream } from '@libp2p/interface';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** JSON to bytes. */
export function encode(v: unknown): Uint8Array {
  return enc.encode(JSON.stringify(v));
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

/** Reads a whole stream, failing above `max` bytes. */
export async function readAll(stream: Stream, max: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream.source) {
    const bytes = chunk.subarray();
    size += bytes.byteLength;
    if (size > max) throw new Error(`stream larger than ${max} bytes`);
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
