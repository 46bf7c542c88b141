/**
 * The web drive's consensus records (sites, files, releases, aliases) and the pure rules they
 * share: file ids, safe file paths, release manifests and their Merkle root.
 */
import { sha256Hex, merkleRoot } from '../../hash.ts';
import { defineRecord } from '../../record.ts';
import type { StateReader } from '../handler.ts';
import { refuse } from '../handler.ts';

/** A web drive: owned by its registrant, pointing at one of its releases once activated. */
export interface WebSite {
  siteId: string;
  owner: string;
  name: string;
  /** The release served; absent until the first WEB_RELEASE_ACTIVATE. */
  activeReleaseId?: string;
  /** Releases published so far (the next one's `seq`). */
  releaseCount: number;
  createdAt: number;
  blockIndex: number;
}

/**
 * A file of a site: where it lives. Its header, status and bytes are its upload's in the file
 * store (core/tx/web/webFiles.ts); this record is written by its first WEB_FILE_INIT and never changes.
 */
export interface WebFile {
  fileId: string;
  siteId: string;
  path: string;
}

/** One manifest entry of a release. */
export interface ManifestEntry {
  path: string;
  fileId: string;
}

/** An immutable release: a manifest of path to fileId and its Merkle root. */
export interface WebRelease {
  releaseId: string;
  siteId: string;
  /** Publication order within its site, from 0. */
  seq: number;
  merkleRoot: string;
  manifest: ManifestEntry[];
  publishedAt: number;
  blockIndex: number;
  txHash: string;
}

/** An alias: a DNS-style name bound to its first setter, pointing at one of that owner's sites. */
export interface WebAlias {
  alias: string;
  siteId: string;
  owner: string;
  setAt: number;
  blockIndex: number;
}

/** Site records, `ws:<siteId>`. */
export const WEB_SITES = defineRecord<WebSite>()('webSites', { prefix: 'ws', id: 'siteId', doc: 'web site' });
/** File records, `wf:<fileId>`. */
export const WEB_FILES = defineRecord<WebFile>()('webFiles', { prefix: 'wf', id: 'fileId', doc: 'web file' });
/** Release records, `wr:<releaseId>`. */
export const WEB_RELEASES = defineRecord<WebRelease>()('webReleases', { prefix: 'wr', id: 'releaseId', doc: 'web release' });
/** Alias records, `wa:<alias>`. */
export const WEB_ALIASES = defineRecord<WebAlias>()('webAliases', { prefix: 'wa', id: 'alias', doc: 'web alias' });

/** fileId = SHA-256 of the UTF-8 bytes of siteId + path + contentHash. */
export function fileIdOf(siteId: string, path: string, contentHash: string): string {
  return sha256Hex(siteId + path + contentHash);
}

/**
 * Why a file path cannot be served, or null. Beyond the schema's `/` + printable ASCII: segments
 * are non-empty, never `.` or `..`, the path does not end in `/` (a file, not a folder), and it
 * holds no `\`, `?` or `#` (a browser could not address it).
 */
export function webPathProblem(path: string): string | null {
  if (!path.startsWith('/')) return 'must start with /';
  if (/[\\?#]/.test(path)) return 'must not contain \\, ? or #';
  for (const seg of path.slice(1).split('/')) {
    if (seg === '') return 'must not have empty segments or end with /';
    if (seg === '.' || seg === '..') return 'must not have . or .. segments';
  }
  return null;
}

/** Why a manifest is not strictly sorted by path (so free of duplicates), or null. */
export function manifestProblem(manifest: readonly ManifestEntry[]): string | null {
  if (manifest.length === 0) return 'manifest must name at least one file';
  for (let i = 1; i < manifest.length; i++) {
    const a = manifest[i - 1].path;
    const b = manifest[i].path;
    if (a === b) return `manifest names ${b} twice`;
    if (a > b) return `manifest is not sorted by path: ${b} after ${a}`;
  }
  return null;
}

/** The release Merkle root: the txRoot algorithm over leaves SHA-256(path + fileId). */
export function manifestRoot(manifest: readonly ManifestEntry[]): string {
  return merkleRoot(manifest.map((e) => sha256Hex(e.path + e.fileId)));
}

/** The fileId a sorted manifest maps `path` to (binary search), or undefined. */
export function manifestLookup(manifest: readonly ManifestEntry[], path: string): string | undefined {
  let lo = 0;
  let hi = manifest.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = manifest[mid].path;
    if (p === path) return manifest[mid].fileId;
    if (p < path) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The site `siteId` when `from` owns it; refuses otherwise (only a site's owner writes to it). */
export function ownedSite(state: StateReader, siteId: string, from: string): Readonly<WebSite> {
  const site = state.get(WEB_SITES, siteId);
  if (!site) refuse(`site ${siteId} does not exist`);
  if (site.owner !== from) refuse(`only the site's owner ${site.owner} may change site ${siteId}`);
  return site;
}
