/**
 * The local side of `ombra drive push`: the files of a folder as drive files (path, bytes,
 * content type, SHA-256, fileId), the manifest they make and its Merkle root, all computed with
 * core's rules so the node agrees.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { sha256Hex } from '../../core/hash.ts';
import { fileIdOf, manifestRoot, webPathProblem, type ManifestEntry } from '../../core/tx/web/webRecords.ts';
import { UsageError } from '../args.ts';

/** Content types by extension (what browsers need to render a site); others are octet streams. */
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** The content type a file name gets. */
function driveContentType(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

/** One local file, ready to upload. */
export interface LocalFile {
  path: string;
  bytes: Buffer;
  contentType: string;
  contentHash: string;
  fileId: string;
}

/**
 * Every regular file under `dir` (recursively, dot files and symbolic links skipped) as a drive
 * file of `siteId`, sorted by path. Empty files are skipped (an upload holds at least one byte)
 * and reported in `skipped`. A path the drive refuses is a usage error naming it.
 */
export function localFiles(dir: string, siteId: string): { files: LocalFile[]; skipped: string[] } {
  const files: LocalFile[] = [];
  const skipped: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      if (name.startsWith('.')) continue;
      const full = join(d, name);
      const st = lstatSync(full);
      if (st.isDirectory()) walk(full);
      if (!st.isFile()) continue;
      const path = `/${relative(dir, full).split(sep).join('/')}`;
      const problem = /^\/[\x21-\x7e]{0,511}$/.test(path)
        ? webPathProblem(path)
        : 'must be printable ASCII without spaces, at most 512 characters';
      if (problem) throw new UsageError(`cannot upload ${path}: a drive path ${problem}`);
      const bytes = readFileSync(full);
      if (bytes.length === 0) {
        skipped.push(path);
        continue;
      }
      const contentHash = sha256Hex(bytes);
      files.push({ path, bytes, contentType: driveContentType(name), contentHash, fileId: fileIdOf(siteId, path, contentHash) });
    }
  };
  walk(dir);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, skipped };
}

/** The manifest of sorted files and its Merkle root. */
export function manifestOf(files: readonly LocalFile[]): { manifest: ManifestEntry[]; merkleRoot: string } {
  const manifest = files.map((f) => ({ path: f.path, fileId: f.fileId }));
  return { manifest, merkleRoot: manifestRoot(manifest) };
}

/** The release id a push derives from its site and root: pushing the same content twice publishes once. */
export function releaseIdOf(siteId: string, merkleRoot: string): string {
  return sha256Hex(`${siteId}:${merkleRoot}`);
}
