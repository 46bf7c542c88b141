/**
 * Reads of the web drive: sites and their releases (consensus records, releases listed through
 * the webDrive projection's index), bundles and file bytes (the content store, through
 * ContentQueries), and the resolution of `alias + path` to a file for static serving.
 */
import { driveFile, FILES, type DriveFile } from '../core/tx/webFiles.ts';
import { manifestLookup, type WebRelease, type WebSite } from '../core/tx/webRecords.ts';
import type { ChainState } from '../core/state.ts';
import type { ReadPorts } from '../node/ports.ts';
import { siteReleaseRange, webDriveProjection } from '../projections/webDrive.ts';
import type { ContentQueries, StoredContent } from './contentQueries.ts';
import { StateOverlay } from '../core/state.ts';

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

/** Query facade of the drive. */
export class WebQueries {
  private readonly ports: ReadPorts;
  private readonly content: ContentQueries;

  constructor(ports: ReadPorts, content: ContentQueries) {
    this.ports = ports;
    this.content = content;
  }

  private records(): ChainState['records'] {
    return this.ports.chain.state().records;
  }

  site(siteId: string): WebSite | undefined {
    return this.records().webSites.get(siteId);
  }

  release(releaseId: string): WebRelease | undefined {
    return this.records().webReleases.get(releaseId);
  }

  /** The site an alias points at. */
  aliasSite(alias: string): WebSite | undefined {
    const a = this.records().webAliases.get(alias);
    return a ? this.site(a.siteId) : undefined;
  }

  /** A file's metadata (any status), or undefined when no INIT named it. */
  file(fileId: string): FileInfo | undefined {
    const f = driveFile(new StateOverlay(this.ports.chain.state()), fileId);
    if (!f) return undefined;
    const { txHash: _txHash, ...info } = f;
    return info;
  }

  /** A site's releases, newest first, `limit` from `offset`. */
  async siteReleases(site: WebSite, limit: number, offset: number): Promise<SiteReleases> {
    const rows = await this.ports.models.readable(webDriveProjection);
    const releases: ReleaseSummary[] = [];
    const range = siteReleaseRange(site.siteId);
    const ids = rows.values({ ...range, reverse: true, limit: offset + limit });
    let i = 0;
    for await (const id of ids) {
      if (i++ < offset) continue;
      const r = this.release(id as string);
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

  /** A release with the chunks of its files; a file deleted since is left out. */
  async bundle(r: WebRelease): Promise<Bundle> {
    const files: BundleFile[] = [];
    for (const e of r.manifest) {
      const u = this.content.complete(FILES, e.fileId);
      if (!u) continue;
      const chunks: string[] = [];
      for await (const part of this.content.bytes(FILES, e.fileId)) chunks.push(Buffer.from(part).toString('base64'));
      files.push({ path: e.path, fileId: e.fileId, contentType: u.contentType, size: u.totalBytes, chunks });
    }
    return { releaseId: r.releaseId, siteId: r.siteId, merkleRoot: r.merkleRoot, files };
  }

  /** A complete file ready to serve, or undefined (unknown, unfinished or deleted). */
  served(fileId: string): StoredContent | undefined {
    return this.content.served(FILES, fileId);
  }

  /** The fileId the active release of the site behind `alias` serves at `path`, or undefined. */
  resolve(alias: string, path: string): string | undefined {
    const site = this.aliasSite(alias);
    const active = site?.activeReleaseId ? this.release(site.activeReleaseId) : undefined;
    return active ? manifestLookup(active.manifest, path) : undefined;
  }
}
