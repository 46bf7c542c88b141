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

/**
 * A peer was too slow: no answer within the deadline, or a trickle below the minimum rate. Not a
 * breach like OversizedError (an honest peer can be slow once); the asker strikes it and moves on.
 */
export class StalledError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StalledError';
  }
}

/** How long reading an answer may take: `timeoutMs`, plus one second per `minBytesPerSecond` received. */
export interface ReadDeadline {
  timeoutMs: number;
  minBytesPerSecond: number;
}

/**
 * Reads a whole stream, failing with OversizedError above `max` bytes, and with StalledError when
 * `deadline` passes (the stream is aborted either way). The deadline grows with the bytes received,
 * so a large answer at a fair rate completes, and one at a trickle is cut off: a whole answer never
 * takes longer than `timeoutMs + max / minBytesPerSecond`.
 */
export async function readAll(stream: Stream, max: number, deadline?: ReadDeadline): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let size = 0;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let stalled: StalledError | null = null;
  const arm = () => {
    if (!deadline) return;
    clearTimeout(timer);
    const due = started + deadline.timeoutMs + (size / deadline.minBytesPerSecond) * 1000;
    timer = setTimeout(
      () => {
        stalled = new StalledError(
          `sent ${size} bytes in ${Date.now() - started} ms (deadline ${deadline.timeoutMs} ms, then ${deadline.minBytesPerSecond} B/s)`,
        );
        stream.abort(stalled);
      },
      Math.max(0, due - Date.now()),
    );
  };
  arm();
  try {
    for await (const chunk of stream.source) {
      const bytes = chunk.subarray();
      size += bytes.byteLength;
      if (size > max) {
        const e = new OversizedError(max);
        stream.abort(e);
        throw e;
      }
      parts.push(bytes);
      arm();
    }
  } catch (e) {
    throw stalled ?? e;
  } finally {
    clearTimeout(timer);
  }
  if (stalled) throw stalled;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
