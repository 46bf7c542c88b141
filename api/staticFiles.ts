/**
 * Static files the node serves itself (the explorer, the docs page): a fixed directory listed
 * once, names of one path segment only (no traversal), read once and kept, each with its
 * content type, and pages under a Content-Security-Policy that allows only this origin.
 */
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
  type: string;
}

/** The content type of a file name (text/plain for unknown extensions). */
function contentTypeOf(name: string): string {
  return TYPES[extname(name)] ?? 'text/plain; charset=utf-8';
}

/** The files of `dir` (not recursive) by name, read on first use and kept. */
export function staticDir(dir: URL): (name: string) => StaticFile | undefined {
  const names = new Set(readdirSync(dir).filter((n) => /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(n) && TYPES[extname(n)]));
  const cache = new Map<string, StaticFile>();
  return (name) => {
    if (!names.has(name)) return undefined;
    let f = cache.get(name);
    if (!f) {
      f = { body: readFileSync(new URL(name, dir), 'utf8'), type: contentTypeOf(name) };
      cache.set(name, f);
    }
    return f;
  };
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

/** Headers of a static asset. */
export function assetHeaders(type: string): Record<string, string> {
  return { 'Content-Type': type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
}
