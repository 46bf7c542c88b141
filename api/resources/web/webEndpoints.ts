/** The definitions of the web drive routes: /api/web/* and the static sites at /web/:alias/:path. */
import { endpoints } from '../../endpoints/endpoint.ts';
import { CONTENT_HEADERS, hashParam, matching, paging } from '../../endpoints/params.ts';
import { EXAMPLE_IDS } from '../../endpoints/examples.ts';
import { address, arr, hash, ms, nullable, obj, oneOf, str, uint } from '../../../queries/schemas/shapes.ts';

const siteId = matching(/^[A-Za-z0-9_-]{3,64}$/, 'site id', 'siteId must match [A-Za-z0-9_-]{3,64}', 'sim-5c026a5f40f2');
const releaseId = matching(/^[A-Za-z0-9_-]{1,64}$/, 'release id', 'releaseId must match [A-Za-z0-9_-]{1,64}', 'sim-5c026a5f40f2-r1');
const alias = matching(
  /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/,
  'alias (a DNS label)',
  'alias must be a DNS label of 3-63 characters',
  'sim-5c026a5f40f2',
);
const bundle = obj({
  releaseId: str,
  siteId: str,
  merkleRoot: hash,
  files: arr(obj({ path: str, fileId: hash, contentType: str, size: uint, chunks: arr({ type: 'string', contentEncoding: 'base64' }) })),
});
const BUNDLE_NOTE = "Files deleted since the release was published are left out; `chunks` are the file's bytes in upload order, base64.";

/** Web drive routes. */
export const WEB_ENDPOINTS = endpoints({
  getApiWebSites: {
    method: 'GET',
    path: '/api/web/sites',
    tag: 'web',
    summary: 'Every site, newest first (count: all of them)',
    query: paging(100),
    ok: {
      schema: obj({
        count: uint,
        sites: arr(
          obj({
            siteId: str,
            owner: address,
            name: str,
            activeReleaseId: nullable(str),
            releaseCount: uint,
            createdAt: ms,
            blockIndex: uint,
          }),
        ),
      }),
    },
  },
  getApiWebReleaseReleaseId: {
    method: 'GET',
    path: '/api/web/release/:releaseId',
    tag: 'web',
    summary: 'A release and the files its manifest names, in manifest order (count: all of them); a page of `files` by limit and offset',
    params: { releaseId },
    query: paging(1000, 100),
    ok: {
      schema: obj({
        releaseId: str,
        siteId: str,
        seq: uint,
        merkleRoot: hash,
        publishedAt: ms,
        blockIndex: uint,
        count: uint,
        files: arr(obj({ path: str, fileId: hash })),
      }),
    },
    errors: [404],
  },
  getApiWebSiteSiteIdReleases: {
    method: 'GET',
    path: '/api/web/site/:siteId/releases',
    tag: 'web',
    summary: "A site and its releases, newest first (`files`: how many files a release's manifest names)",
    params: { siteId },
    query: paging(100),
    ok: {
      schema: obj({
        siteId: str,
        owner: address,
        name: str,
        activeReleaseId: nullable(str),
        total: uint,
        releases: arr(obj({ releaseId: str, merkleRoot: hash, files: uint, publishedAt: ms, blockIndex: uint })),
      }),
    },
    errors: [404],
  },
  getApiWebReleaseReleaseIdBundle: {
    method: 'GET',
    path: '/api/web/release/:releaseId/bundle',
    tag: 'web',
    summary: 'A release with the contents of its files',
    description: BUNDLE_NOTE,
    params: { releaseId },
    ok: { schema: bundle },
    errors: [404],
  },
  getApiWebAliasAliasBundle: {
    method: 'GET',
    path: '/api/web/alias/:alias/bundle',
    tag: 'web',
    summary: 'The active release of the site an alias points at, with the contents of its files',
    description: BUNDLE_NOTE,
    params: { alias },
    ok: { schema: bundle },
    errors: [404],
  },
  getApiWebFileFileIdContent: {
    method: 'GET',
    path: '/api/web/file/:fileId/content',
    tag: 'web',
    summary:
      "A complete file's raw bytes, with its content type, `ETag` (its SHA-256) and an immutable cache; 304 for a matching If-None-Match",
    params: { fileId: hashParam('file id: SHA-256(siteId + path + contentHash)', 'fileId', EXAMPLE_IDS.webFile) },
    headers: CONTENT_HEADERS,
    ok: {
      contentType: '*/*',
      description: "the file's bytes under its own content type (the `contentType` it was uploaded with; text types in UTF-8)",
    },
    errors: [404, 416],
  },
  getApiWebFileFileId: {
    method: 'GET',
    path: '/api/web/file/:fileId',
    tag: 'web',
    summary: "A drive file's header and upload status (beyond the spec: what an uploader resumes from)",
    params: { fileId: hashParam('file id', 'fileId', EXAMPLE_IDS.webFile) },
    ok: {
      schema: obj(
        {
          fileId: hash,
          siteId: str,
          path: str,
          contentType: str,
          totalBytes: uint,
          totalChunks: uint,
          contentHash: hash,
          owner: address,
          status: oneOf('pending', 'complete', 'expired', 'deleted'),
          received: uint,
          receivedBytes: uint,
          createdAt: ms,
          blockIndex: uint,
          closedAt: ms,
        },
        ['closedAt'],
      ),
    },
    errors: [404],
  },
  getWebAlias: {
    method: 'GET',
    path: '/web/:alias',
    tag: 'web',
    summary: 'Redirects (301) to /web/:alias/, so relative links of the site resolve inside it',
    params: { alias },
    ok: { status: 301, contentType: 'text/plain', description: 'a redirect' },
    // A client that follows the redirect gets the site's answer.
    errors: [404],
  },
  getWebAliasPath: {
    method: 'GET',
    // `{.*}`: the tail is one parameter, slashes and all (and empty: the site's index.html).
    path: '/web/:alias/:path{.*}',
    tag: 'web',
    summary:
      "The site an alias points at, served from its active release: a path ending in `/` is its `index.html`; each file's content type, `ETag` and `Cache-Control: no-cache`; 304 for a matching If-None-Match; sandboxed (CSP)",
    description:
      "`path` is the rest of the URL after the alias, so it may hold `/`: `/web/my-site/css/site.css` asks for `/css/site.css`. A client filling in this template percent-encodes it (`css%2Fsite.css`), which the node decodes the same way. An empty path (`/web/my-site/`) is the site's `index.html`.",
    params: {
      alias,
      path: {
        schema: { type: 'string' },
        description: "the file's path in the site, without the leading `/`; it may contain `/`; ending in `/`: that folder's index.html",
        example: 'index.html',
      },
    },
    headers: CONTENT_HEADERS,
    ok: {
      contentType: '*/*',
      description: 'the file at the path under its own content type (the `contentType` it was uploaded with; text types in UTF-8)',
    },
    errors: [404, 416],
  },
});
