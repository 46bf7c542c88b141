/**
 * Answer compression, taken by the envelope (api/envelope.ts) after the dispatch: brotli or gzip
 * as the request's Accept-Encoding allows, for JSON, HTML, JavaScript, CSS and SVG answers of at
 * least `minBytes` whose body is already in memory. Streams (SSE, the full-block ranges, NDJSON
 * and CSV exports, WebSocket upgrades) are bodies still to come, so they are never held back to
 * be compressed, and media (already compressed) is not touched. A compressible answer says
 * `Vary: Accept-Encoding` whether or not this request got it compressed.
 *
 * Synchronous: @hono/node-server's own Response keeps a string or byte body readable at once,
 * and zlib's one-shot functions compress it, so a handler that answers synchronously still
 * does. Hot reads hand back the same body string request after request (jsonAnswer.ts), so the
 * compressed bytes of recent bodies are kept by body and encoding.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isStreamed } from './streamedAnswer.ts';

/** Compression options. */
export interface CompressionOptions {
  /** Smallest body compressed, in bytes. */
  minBytes: number;
  /** Compressed bodies remembered (by body and encoding). */
  cacheEntries: number;
  /** Largest body whose compressed form is remembered. */
  cacheMaxBytes: number;
  /** Most bytes the remembered bodies and their compressed forms hold together (both encodings). */
  cacheBudgetBytes: number;
}

/**
 * ~1 KB and up; 512 recent bodies up to 256 KB each, 16 MiB in all: the entry count alone let
 * large bodies (explorer pages, blocks of hundreds of transactions) keep up to 2 x 128 MiB of
 * strings alive after every other holder had let them go.
 */
const defaultCompressionOptions: CompressionOptions = {
  minBytes: 1024,
  cacheEntries: 512,
  cacheMaxBytes: 256 * 1024,
  cacheBudgetBytes: 16 * 1024 * 1024,
};

/** Content types worth compressing (by their start). */
const COMPRESSIBLE = /^(application\/(json|javascript|manifest\+json)|text\/(html|css|javascript|plain)|image\/svg\+xml)/i;

// Brotli 4 and gzip 6: both about as fast; brotli a little smaller.
const BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP = { level: 6 };

type Encoding = 'br' | 'gzip';

/** The encoding to use for an Accept-Encoding header (brotli first), or null. */
export function pickEncoding(accept: string | undefined | null): Encoding | null {
  if (!accept) return null;
  const allowed = (name: string) => {
    const m = new RegExp(`(?:^|,)\\s*${name}\\s*(?:;\\s*q\\s*=\\s*([0-9.]+))?\\s*(?:,|$)`, 'i').exec(accept);
    return m !== null && (m[1] === undefined || Number(m[1]) > 0);
  };
  if (allowed('br')) return 'br';
  if (allowed('gzip')) return 'gzip';
  return null;
}

// biome-ignore lint/suspicious/noExplicitAny: @hono/node-server's Response keeps [status, body, headers] under a private symbol.
type Cached = [number, any, any];
let cacheSymbol: symbol | null | undefined;

/** @hono/node-server's `[status, body, headers]` of a response whose body is in memory, if it is one of those. */
function cachedParts(r: Response): Cached | undefined {
  if (cacheSymbol === undefined || cacheSymbol === null) {
    const s = Object.getOwnPropertySymbols(r).find((x) => x.description === 'cache');
    if (!s) return undefined;
    cacheSymbol = s;
  }
  return (r as unknown as Record<symbol, Cached | undefined>)[cacheSymbol];
}

/** A header of a plain record or Headers, by lower-case name. */
function headerOf(h: unknown, lower: string): string | undefined {
  if (!h) return undefined;
  if (h instanceof Headers) return h.get(lower) ?? undefined;
  if (Array.isArray(h)) return (h as [string, string][]).find(([k]) => k.toLowerCase() === lower)?.[1];
  for (const k in h as Record<string, string>)
    if (k.length === lower.length && k.toLowerCase() === lower) return (h as Record<string, string>)[k];
  return undefined;
}

/** The headers as a plain record, without those named in `drop` (lower case). */
function plainHeaders(h: unknown, drop: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: Iterable<[string, string]> =
    h instanceof Headers ? h.entries() : Array.isArray(h) ? (h as [string, string][]) : Object.entries((h ?? {}) as Record<string, string>);
  for (const [k, v] of entries) if (!drop.has(k.toLowerCase())) out[k] = v;
  return out;
}

const DROPPED = new Set(['content-length', 'vary']);

/** Compresses answers for the envelope; keeps the compressed form of recent bodies. */
export class Compressor {
  readonly opts: CompressionOptions;
  // One map per encoding, keyed by the body itself: the same string object again finds its hash cached.
  private readonly cache: Record<Encoding, Map<string, Uint8Array>> = { br: new Map(), gzip: new Map() };
  private readonly bytesCache = new WeakMap<Uint8Array, Partial<Record<Encoding, Uint8Array>>>();
  /** Bytes the two maps hold: each body's length (one byte a character as V8 keeps JSON) plus its compressed form. */
  private held = 0;

  constructor(options: Partial<CompressionOptions> = {}) {
    this.opts = { ...defaultCompressionOptions, ...options };
  }

  /** `r` compressed for a request that accepts `accept` (or `r` itself when it is not compressible). */
  answer(r: Response, method: string, accept: string | undefined | null): Response {
    // A route that marked its answer streamed (stored content, ranges) keeps it as it is.
    if (method !== 'GET' || isStreamed(r)) return r;
    const parts = cachedParts(r);
    if (!parts) return r;
    const [status, body, headers] = parts;
    if (status !== 200 || (typeof body !== 'string' && !(body instanceof Uint8Array))) return r;
    const type = headerOf(headers, 'content-type');
    if (!type || !COMPRESSIBLE.test(type) || headerOf(headers, 'content-encoding')) return r;
    const size = typeof body === 'string' ? body.length : body.byteLength;
    if (size < this.opts.minBytes) return r;
    const vary = headerOf(headers, 'vary');
    const varyValue = vary ? (/accept-encoding/i.test(vary) ? vary : `${vary}, Accept-Encoding`) : 'Accept-Encoding';
    const encoding = pickEncoding(accept);
    const out = plainHeaders(headers, DROPPED);
    out.Vary = varyValue;
    if (encoding === null) return new Response(body, { status, headers: out });
    out['Content-Encoding'] = encoding;
    return new Response(this.compress(body, encoding), { status, headers: out });
  }

  /** The compressed bytes of `body`, from the cache when recently made. */
  compress(body: string | Uint8Array, encoding: Encoding): Uint8Array {
    if (typeof body !== 'string') {
      // Static files hand back the same bytes every time: remembered with them.
      let forms = this.bytesCache.get(body);
      if (!forms) {
        forms = {};
        this.bytesCache.set(body, forms);
      }
      forms[encoding] ??= encode(body, encoding);
      return forms[encoding];
    }
    if (body.length > this.opts.cacheMaxBytes) return encode(body, encoding);
    const cache = this.cache[encoding];
    let c = cache.get(body);
    if (c === undefined) {
      c = encode(body, encoding);
      const cost = body.length + c.byteLength;
      // The oldest go first, from this encoding's map, then the other's, until both bounds hold.
      const other = this.cache[encoding === 'br' ? 'gzip' : 'br'];
      while (cache.size > 0 && (cache.size >= this.opts.cacheEntries || this.held + cost > this.opts.cacheBudgetBytes))
        this.evictOldest(cache);
      while (other.size > 0 && this.held + cost > this.opts.cacheBudgetBytes) this.evictOldest(other);
      if (cost <= this.opts.cacheBudgetBytes) {
        cache.set(body, c);
        this.held += cost;
      }
    }
    return c;
  }

  /** Bytes the remembered bodies and their compressed forms hold now. */
  get cachedBytes(): number {
    return this.held;
  }

  private evictOldest(cache: Map<string, Uint8Array>): void {
    const [body, c] = cache.entries().next().value as [string, Uint8Array];
    cache.delete(body);
    this.held -= body.length + c.byteLength;
  }
}

function encode(body: string | Uint8Array, encoding: Encoding): Uint8Array {
  return encoding === 'br' ? brotliCompressSync(body, BROTLI) : gzipSync(body, GZIP);
}
