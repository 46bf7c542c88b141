/**
 * The web drive. /api/web (the spec's four reads, plus a file's metadata): `site/:siteId/releases`
 * `{siteId, owner, name, activeReleaseId, total, releases}` newest first (limit default 30, at
 * most 100, offset); `release/:releaseId/bundle` and `alias/:alias/bundle` (the active release)
 * `{releaseId, siteId, merkleRoot, files: [{path, fileId, contentType, size, chunks}]}`;
 * `file/:fileId/content` the raw bytes (content-addressed: immutable cache; sandboxed, no
 * script); `file/:fileId` the file's header and upload status. /web/:alias/<path> serves the alias's active release as a
 * static site (see `serveFile`).
 */
import type { Hono, Context } from 'hono';
import { ChainError } from '../../../core/errors.ts';
import { type Handler, type Handlers, resource } from '../../endpoints/endpoint.ts';
import { WEB_ENDPOINTS as E } from './webEndpoints.ts';
import { webPathProblem } from '../../../core/tx/web/webRecords.ts';
import type { WebQueries } from '../../../queries/webQueries.ts';
import { contentResponse } from '../../contentResponse.ts';
import type { ApiDeps } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { jsonStream } from '../../jsonAnswer.ts';

/** Text types are served as UTF-8 (a drive's content type has no parameters). */
function servedType(contentType: string): string {
  return /^text\/|^application\/(json|javascript|xml)$|\+xml$/.test(contentType) ? `${contentType}; charset=utf-8` : contentType;
}

/** A complete file, text types as UTF-8, with its caching and sandbox CSP (see api/contentResponse.ts). */
async function serveFile(c: Context, web: WebQueries, fileId: string, headers: Record<string, string>): Promise<Response> {
  const f = (await web.served(fileId)) ?? notFound(`file ${fileId}`);
  return contentResponse(c, { ...f, contentType: servedType(f.contentType) }, headers);
}

/** The web resource: /api/web (sites, releases, bundles, files) and the sites themselves under /web. */
export function webRoutes(deps: ApiDeps): Hono {
  const { web } = deps.queries;

  return resource(E, {
    getApiWebSiteSiteIdReleases: async (c, { params: { siteId }, query: { limit, offset } }) => {
      const site = (await web.site(siteId)) ?? notFound(`site ${siteId}`);
      return c.json(await web.siteReleases(site, limit, offset));
    },
    getApiWebSites: async (c, { query: { limit, offset } }) => c.json(await web.sites(limit, offset)),
    getApiWebReleaseReleaseId: async (c, { params: { releaseId }, query: { limit, offset } }) => {
      const { txHash: _txHash, manifest, ...r } = (await web.release(releaseId)) ?? notFound(`release ${releaseId}`);
      return c.json({ ...r, count: manifest.length, files: manifest.slice(offset, offset + limit) });
    },
    getApiWebReleaseReleaseIdBundle: async (c, { params: { releaseId } }) => {
      const r = (await web.release(releaseId)) ?? notFound(`release ${releaseId}`);
      return jsonStream(c, web.bundleJson(r));
    },
    getApiWebAliasAliasBundle: async (c, { params: { alias } }) => {
      const site = (await web.aliasSite(alias)) ?? notFound(`alias ${alias}`);
      const r = (site.activeReleaseId && (await web.release(site.activeReleaseId))) || notFound(`an active release of alias ${alias}`);
      return jsonStream(c, web.bundleJson(r));
    },
    getApiWebFileFileIdContent: (c, { params: { fileId } }) =>
      serveFile(c, web, fileId, { 'Cache-Control': 'public, max-age=31536000, immutable' }),
    getApiWebFileFileId: async (c, { params: { fileId } }) => {
      return c.json((await web.file(fileId)) ?? notFound(`file ${fileId}`));
    },
    ...webSiteHandlers(deps),
  });
}

/**
 * A drive's pages are the drive owner's code: they are served sandboxed (an opaque origin), so a
 * page cannot act as this node's explorer or read what the node's origin stores; as a site, its
 * scripts and forms run there. A file opened by its id gets the stricter USER_CONTENT_CSP.
 */
const SITE_HEADERS = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy': 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads',
};

/** The drive path a request path asks for: percent-decoded, `/` and folders ending `/` mean their index.html. */
export function drivePathOf(rest: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(rest === '' ? '/' : rest);
  } catch {
    return undefined;
  }
  if (path.endsWith('/')) path += 'index.html';
  return /^\/[\x21-\x7e]{0,511}$/.test(path) && webPathProblem(path) === null ? path : undefined;
}

/**
 * /web/:alias/:path: the active release of an alias as a static site. `path` is the whole rest
 * of the URL (slashes and all, or empty); it is read from the URL itself, still encoded, so a
 * path a client percent-encoded whole (`css%2Fsite.css`) and one it wrote out (`css/site.css`)
 * name the same file.
 */
function webSiteHandlers({ queries }: ApiDeps): Pick<Handlers<typeof E>, 'getWebAlias' | 'getWebAliasPath'> {
  const { web } = queries;
  const page: Handler<typeof E.getWebAlias> = async (c, { params: { alias } }) => {
    // The URL parser already resolved dot segments (encoded ones too); the rest is still encoded.
    const pathname = new URL(c.req.url).pathname;
    const rest = pathname.slice(`/web/${alias}`.length);
    // Without the trailing slash, a page's relative links would resolve against /web/.
    if (rest === '') return c.redirect(`/web/${alias}/`, 301);
    const path = drivePathOf(rest) ?? notFound(pathname.slice(0, 200));
    const found = await web.resolve(alias, path);
    if ('missing' in found) {
      if (found.missing === 'site') throw new ChainError('NOT_FOUND', `no such site: ${alias}`);
      if (found.missing === 'release') throw new ChainError('NOT_FOUND', `site ${alias} has no active release`);
      notFound(`${path.slice(0, 200)} in the active release of ${alias}`);
    }
    return serveFile(c, web, found.fileId, SITE_HEADERS);
  };
  return { getWebAlias: page, getWebAliasPath: page };
}
