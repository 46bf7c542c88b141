/**
 * Reads of the web drive: sites and their releases (consensus records, releases listed through
 * the webDrive projection's index), bundles and file bytes (the content store, through
 * ContentQueries), and the resolution of `alias + path` to a file for static serving.
 */
import { driveFile, FILES, type DriveFile } from '../core/tx/web/webFiles.ts';
import { manifestLookup, WEB_ALIASES, WEB_RELEASES, WEB_SITES, type WebRelease, type WebSite } from '../core/tx/web/webRecords.ts';
import type { ReadPorts } from '../node/ports.ts';
import { siteReleaseRows, siteRows, webDriveProjection } from '../projections/webDrive.ts';
import type { ContentQueries, StoredContent } from './contentQueries.ts';
import { readRecord, readRecords, readState } from './stateReads.ts';
import type { JsonPieces } from './schemas/shapes.ts';

/** One release in a site's list. */
export interface ReleaseSummary {
  releaseId: string;
  merkleRoot: string;
  /** How many files its manifest names. */
  files: number;
  publishedAt: number;
  blockIndex: number;
}

/** GET /api/web/site/:siteId/releases. */
export interface SiteReleases {
  siteId: string;
  owner: string;
  name: string;
  activeReleaseId: string | null;
  /** Releases the site published in all. */
  total: number;
  /** Newest first. */
  releases: ReleaseSummary[];
}

/** One file of a bundle, its bytes as the chunks it was uploaded in. */
export interface BundleFile {
  path: string;
  fileId: string;
  contentType: string;
  size: number;
  chunks: string[];
}

/** A release with its files' contents. */
export interface Bundle {
  releaseId: string;
  siteId: string;
  merkleRoot: string;
  files: BundleFile[];
}

/** A drive file's metadata as served (GET /api/web/file/:fileId). */
export type FileInfo = Omit<DriveFile, 'txHash'>;

/** A site as lists show it. */
export interface SiteSummary {
  siteId: string;
  owner: string;
  name: string;
  activeReleaseId: string | null;
  releaseCount: number;
  createdAt: number;
  blockIndex: number;
}

/** Query facade of the drive. */
export class WebQueries {
  private readonly ports: ReadPorts;
  private readonly content: ContentQueries;

  constructor(ports: ReadPorts, content: ContentQueries) {
    this.ports = ports;
    this.content = content;
  }

  site(siteId: string): Promise<WebSite | undefined> {
    return readRecord(this.ports, WEB_SITES, siteId);
  }

  release(releaseId: string): Promise<WebRelease | undefined> {
    return readRecord(this.ports, WEB_RELEASES, releaseId);
  }

  /** The site an alias points at. */
  async aliasSite(alias: string): Promise<WebSite | undefined> {
    const a = await readRecord(this.ports, WEB_ALIASES, alias);
    return a ? this.site(a.siteId) : undefined;
  }

  /** A file's metadata (any status), or undefined when no INIT named it. */
  async file(fileId: string): Promise<FileInfo | undefined> {
    const f = await readState(this.ports, (s) => driveFile(s, fileId));
    if (!f) return undefined;
    const { txHash: _txHash, ...info } = f;
    return info;
  }

  /** Every site, newest first: `limit` from `offset`, with how many there are. */
  async sites(limit: number, offset: number): Promise<{ count: number; sites: SiteSummary[] }> {
    // The count before the wait: the rows it numbers are written once `readable` resolves.
    const count = this.ports.models.state(webDriveProjection).sites;
    const ids = await siteRows.page(await this.ports.models.readable(webDriveProjection), undefined, count, limit, offset, true);
    const sites = await readRecords(this.ports, WEB_SITES, ids);
    return {
      count,
      sites: sites
        .filter((x) => x !== undefined)
        .map((x) => ({
          siteId: x.siteId,
          owner: x.owner,
          name: x.name,
          activeReleaseId: x.activeReleaseId ?? null,
          releaseCount: x.releaseCount,
          createdAt: x.createdAt,
          blockIndex: x.blockIndex,
        })),
    };
  }

  /** A site's releases, newest first, `limit` from `offset`. */
  async siteReleases(site: WebSite, limit: number, offset: number): Promise<SiteReleases> {
    const rows = await this.ports.models.readable(webDriveProjection);
    const releases: ReleaseSummary[] = [];
    const ids = siteReleaseRows.values(rows, site.siteId, { reverse: true, limit: offset + limit });
    let i = 0;
    for await (const id of ids) {
      if (i++ < offset) continue;
      const r = await this.release(id);
      if (r)
        releases.push({
          releaseId: r.releaseId,
          merkleRoot: r.merkleRoot,
          files: r.manifest.length,
          publishedAt: r.publishedAt,
          blockIndex: r.blockIndex,
        });
    }
    return {
      siteId: site.siteId,
      owner: site.owner,
      name: site.name,
      activeReleaseId: site.activeReleaseId ?? null,
      total: site.releaseCount,
      releases,
    };
  }

  /**
   * A release with the chunks of its files (a file deleted since is left out), as the pieces of
   * its JSON (`Bundle`, exactly as JSON.stringify writes it): one chunk in memory at a time, so
   * a bundle's size costs the node nothing however large the site is.
   */
  async *bundleJson(r: WebRelease): JsonPieces<Bundle> {
    const head: Omit<Bundle, 'files'> = { releaseId: r.releaseId, siteId: r.siteId, merkleRoot: r.merkleRoot };
    yield `${JSON.stringify(head).slice(0, -1)},"files":[`;
    let first = true;
    for (const e of r.manifest) {
      const u = await this.content.complete(FILES, e.fileId);
      if (!u) continue;
      const file: Omit<BundleFile, 'chunks'> = { path: e.path, fileId: e.fileId, contentType: u.contentType, size: u.totalBytes };
      yield `${first ? '' : ','}${JSON.stringify(file).slice(0, -1)},"chunks":[`;
      first = false;
      let firstChunk = true;
      for await (const part of this.content.bytes(FILES, e.fileId)) {
        yield `${firstChunk ? '' : ','}"${Buffer.from(part).toString('base64')}"`;
        firstChunk = false;
      }
      yield ']}';
    }
    yield ']}';
  }

  /** A complete file ready to serve, or undefined (unknown, unfinished or deleted). */
  served(fileId: string): Promise<StoredContent | undefined> {
    return this.content.served(FILES, fileId);
  }

  /**
   * What the site behind `alias` serves at `path`: the fileId of its active release, or why
   * there is none (no such site, no active release, no such file).
   */
  async resolve(alias: string, path: string): Promise<{ fileId: string } | { missing: 'site' | 'release' | 'file' }> {
    const site = await this.aliasSite(alias);
    if (!site) return { missing: 'site' };
    const active = site.activeReleaseId ? await this.release(site.activeReleaseId) : undefined;
    if (!active) return { missing: 'release' };
    const fileId = manifestLookup(active.manifest, path);
    return fileId === undefined ? { missing: 'file' } : { fileId };
  }
}
