/**
 * Static files the node serves itself (the explorer, the docs page): a fixed directory listed
 * once, names of one path segment only (no traversal), read once and kept, each with its
 * content type, and pages under a Content-Security-Policy that allows only this origin.
 *
 * Every file has a version (a hash of its bytes) and an ETag from it. Asked for with its version
 * (`?v=<version>`, as the pages name their files) it is cached for a year (`immutable`: a new
 * version is a new URL); asked for without, it is revalidated every time (`no-cache`), and a
 * matching If-None-Match is answered 304. The rate limiter does not count these files
 * (api/rateLimitOptions.ts, `freePaths`).
 */
import type { Context } from 'hono';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** A file to send. */
export interface StaticFile {
  body: string;
  /** The same bytes, kept (compression remembers its forms of them). */
  bytes: Uint8Array<ArrayBuffer>;
  type: string;
  /** The first 16 hex digits of the SHA-256 of the bytes. */
  version: string;
}

/** A static file of `body`. */
export function staticFile(body: string, type: string): StaticFile {
  const bytes = new TextEncoder().encode(body);
  return { body, bytes, type, version: createHash('sha256').update(bytes).digest('hex').slice(0, 16) };
}

/** A year: how long a file asked for by its version is cached. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A static file's answer: 304 for a matching If-None-Match, cached for a year when asked for by its version. */
export function assetAnswer(c: Context, f: StaticFile): Response {
  const etag = `"${f.version}"`;
  const headers = {
    'Content-Type': f.type,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': c.req.query('v') === f.version ? IMMUTABLE : 'no-cache',
    ETag: etag,
  };
  const match = c.req.header('if-none-match');
  if (match?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return c.body(null, 304, headers);
  return c.body(f.bytes, 200, headers);
}
/** The content type of a file name (text/plain for unknown extensions). */
function contentTypeOf(name: string): string {
  return TYPES[extname(name)] ?? 'text/plain; charset=utf-8';
}

/** The files of a directory by name (`names` lists them). */
export interface StaticDir {
  (name: string): StaticFile | undefined;
  names: readonly string[];
}

/** The files of `dir` (not recursive) by name, read on first use and kept. */
export function staticDir(dir: URL): StaticDir {
  const names = new Set(readdirSync(dir).filter((n) => /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(n) && TYPES[extname(n)]));
  const cache = new Map<string, StaticFile>();
  const files = (name: string) => {
    if (!names.has(name)) return undefined;
    let f = cache.get(name);
    if (!f) {
      f = staticFile(readFileSync(new URL(name, dir), 'utf8'), contentTypeOf(name));
      cache.set(name, f);
    }
    return f;
  };
  return Object.assign(files, { names: [...names] });
}

/** `'sha256-...'` of every inline `<script>` of a page (for its CSP: an import map is inline). */
function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`,
  );
}

/** The policy of a page: only this origin, plus the page's own inline scripts by hash. */
function pagePolicy(html: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    "media-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Headers of a page. */
export function pageHeaders(html: string): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': pagePolicy(html),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

/**
 * A page whose own files are named by version: every `/<prefix>...` file a `src`/`href`
 * attribute names gets its `?v=`, and an import map sends each module import the page's modules
 * make to its versioned URL (workers have no import map: their imports are revalidated).
 */
export function versionedPage(html: string, versions: ReadonlyMap<string, string>): string {
  const withV = (path: string) => (versions.has(path) ? `${path}?v=${versions.get(path)}` : path);
  const imports: Record<string, string> = {};
  for (const path of versions.keys()) if (/\.(js|ts)$/.test(path)) imports[path] = withV(path);
  const map = `<script type="importmap">${JSON.stringify({ imports })}</script>`;
  return html
    .replace(/(\s(?:src|href)=")(\/[^"?#]+)"/g, (_, attr: string, path: string) => `${attr}${withV(path)}"`)
    .replace(/(\s*)(<link |<script )/, (_, space: string, tag: string) => `${space}${map}${space}${tag}`);
}
