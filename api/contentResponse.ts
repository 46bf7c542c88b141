/**
 * The one way stored content (social blobs, media NFT files, drive files) is answered: its content
 * type, `ETag` (the quoted SHA-256 of its bytes), `Accept-Ranges`, 304 for a matching
 * `If-None-Match`, and single byte ranges (206 with `Content-Range`, 416 when unsatisfiable),
 * streamed chunk by chunk from the content store. Players need ranges: Chromium reads an Ogg
 * file's duration from its last page, so without them an audio NFT shows an endless duration.
 * Every answer is user bytes: it carries `nosniff` and a sandboxing CSP (USER_CONTENT_CSP unless
 * the route names another sandbox), so an uploaded HTML or SVG file never runs as the node's origin.
 * A CSP on a script's own answer does not bind the page that loads it, though: the explorer's
 * `script-src 'self'` would run an uploaded `text/javascript` file as the node's origin. So a
 * request of this origin's own pages for user bytes as script, worker or style (Fetch Metadata:
 * `Sec-Fetch-Site: same-origin` and a script-like `Sec-Fetch-Dest`) is refused 403
 * USER_CONTENT_AS_SCRIPT, and every answer varies on those headers so no cache hands an earlier
 * copy to such a request. A drive site's own scripts still load: its pages are sandboxed into an
 * opaque origin, whose requests are `cross-site`.
 */
import type { Context } from 'hono';
import { ChainError } from '../core/errors.ts';
import { cut, type StoredContent } from '../queries/contentQueries.ts';
import { streamed } from './streamedAnswer.ts';

/**
 * The CSP of user content opened directly: an opaque origin (`sandbox`), no script, nothing
 * fetched but the node's own images and media and inline styles.
 */
const USER_CONTENT_CSP = "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** The policy headers every answer of user bytes carries; `csp` must itself sandbox. */
export function userContentHeaders(csp = USER_CONTENT_CSP): { 'Content-Security-Policy': string; 'X-Content-Type-Options': 'nosniff' } {
  if (!/(^|;)\s*sandbox\b/.test(csp)) throw new Error(`a user content CSP must sandbox: ${csp}`);
  return { 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' };
}

/** True when an `If-None-Match` header names `etag` (weak or strong) or is `*`. */
function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * The byte range a `Range` header asks of `size` bytes, as [start, end] inclusive; undefined when
 * the whole content is to be served (no header, another unit, several ranges, or junk, which RFC
 * 9110 lets a server ignore); 'unsatisfiable' when the one range lies outside the content.
 */
export function parseRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return 'unsatisfiable';
  return end < start ? undefined : [start, end];
}

/** A body read from `parts` as the socket drains: one part in memory at a time; a cancel closes the generator. */
export function byteStream(parts: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await parts.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
}

/** Request destinations whose answer the page runs or applies (Fetch Metadata's `Sec-Fetch-Dest`). */
const SCRIPT_LIKE = new Set(['script', 'worker', 'sharedworker', 'serviceworker', 'audioworklet', 'paintworklet', 'xslt', 'style']);

/** The header every answer of user bytes carries, so no cache answers a script request with a copy fetched otherwise. */
export const USER_CONTENT_VARY = 'Sec-Fetch-Dest, Sec-Fetch-Site';

/** Throws USER_CONTENT_AS_SCRIPT when one of this origin's pages asks for user bytes as script or style. */
export function refuseAsScript(c: Context): void {
  const dest = c.req.header('Sec-Fetch-Dest');
  if (dest === undefined || !SCRIPT_LIKE.has(dest) || c.req.header('Sec-Fetch-Site') !== 'same-origin') return;
  throw new ChainError('USER_CONTENT_AS_SCRIPT', `user content is not served to this node's own pages as ${dest}`);
}

/** Answers a GET of `item`; `headers` add caching (and may name another sandbox CSP, see userContentHeaders). */
export function contentResponse(c: Context, item: StoredContent, headers: Record<string, string>): Response {
  try {
    refuseAsScript(c);
  } catch (e) {
    void item.bytes.return(undefined);
    throw e;
  }
  const etag = `"${item.contentHash}"`;
  const common = {
    ETag: etag,
    'Accept-Ranges': 'bytes',
    Vary: USER_CONTENT_VARY,
    ...headers,
    ...userContentHeaders(headers['Content-Security-Policy']),
  };
  if (etagMatches(c.req.header('If-None-Match'), etag)) {
    void item.bytes.return(undefined);
    return c.body(null, 304, common);
  }
  const ifRange = c.req.header('If-Range');
  const range = ifRange === undefined || ifRange.trim() === etag ? parseRange(c.req.header('Range'), item.size) : undefined;
  if (range === 'unsatisfiable') {
    void item.bytes.return(undefined);
    c.header('Content-Range', `bytes */${item.size}`);
    throw new ChainError('RANGE_NOT_SATISFIABLE', `range ${c.req.header('Range')} lies outside the ${item.size} bytes`);
  }
  const typed = { 'Content-Type': item.contentType, ...common };
  if (!range) return streamed(c.body(byteStream(item.bytes), 200, { ...typed, 'Content-Length': String(item.size) }));
  const [start, end] = range;
  // Only the chunks holding the range are read (a suffix range of a large upload reads its tail).
  let parts = item.bytes;
  if (item.range) {
    void item.bytes.return(undefined);
    parts = item.range(start, end);
  } else parts = cut(item.bytes, 0, start, end);
  return streamed(
    c.body(byteStream(parts), 206, {
      ...typed,
      'Content-Length': String(end - start + 1),
      'Content-Range': `bytes ${start}-${end}/${item.size}`,
    }),
  );
}
