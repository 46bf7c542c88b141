// The web drive: a site with its releases, a release's files, a file's upload record, and an
// alias with the site it serves (opened live at /web/<alias>/).
import type { Answers, OmbraClient } from '../../client/browser.ts';
import { el } from './dom.ts';
import { addr, ageCell, badge, bytes, dataTable, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { pagedTable, splitArg } from './paging.ts';

const SITE_ID = /^[A-Za-z0-9_-]{3,64}$/;
const RECORD_ID = /^[A-Za-z0-9_-]{1,64}$/;
const HASH = /^[0-9a-fA-F]{64}$/;
const ALIAS = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const siteLink = (id: string) => fullId(id, `site/${encodeURIComponent(id)}`, 'site id');

/** The files of a release (its bundle), without their bytes. */
function filesTable(bundle: Answers['getApiWebReleaseReleaseIdBundle']) {
  return dataTable(
    'Files of the release',
    ['path', 'file', 'content type', 'size'],
    bundle.files.map((f) => [
      el('span', { class: 'mono' }, f.path),
      idLink(`file/${f.fileId}`, f.fileId),
      el('span', { class: 'mono' }, f.contentType),
      bytes(f.size),
    ]),
    'No files (deleted since the release was published, or none).',
  );
}

export async function sitePage(client: OmbraClient, arg: string) {
  const [id, query] = splitArg(arg);
  if (!SITE_ID.test(id)) return null;
  const first = await client.webSite(id, { limit: 1 });
  if (!first) return null;
  const releases = await pagedTable({
    caption: 'Releases, newest first',
    base: `site/${encodeURIComponent(id)}`,
    query,
    load: async (p) => {
      const r = await client.webSite(id, p);
      return { items: r?.releases ?? [], total: r?.total ?? 0 };
    },
    head: ['release', 'files', 'Merkle root', 'published', 'block', 'active'],
    row: (r) => [
      el('a', { href: `#/release/${encodeURIComponent(r.releaseId)}` }, r.releaseId),
      String(r.files),
      idLink(`release/${encodeURIComponent(r.releaseId)}`, r.merkleRoot, 8),
      ageCell(r.publishedAt),
      el('a', { href: `#/block/${r.blockIndex}` }, `#${r.blockIndex}`),
      r.releaseId === first.activeReleaseId ? badge('active') : none(),
    ],
    empty: 'No releases yet.',
  });
  return pageOf(
    ['Site ', first.name],
    section(
      'Site',
      fields('Site', [
        ['Site id', siteLink(first.siteId)],
        ['Name', first.name],
        ['Owner', fullId(first.owner, `address/${first.owner}`, 'owner address')],
        [
          'Active release',
          first.activeReleaseId
            ? el('a', { href: `#/release/${encodeURIComponent(first.activeReleaseId)}` }, first.activeReleaseId)
            : 'none yet',
        ],
        ['Releases', String(first.total)],
      ]),
    ),
    section('Releases', releases),
  );
}

export async function releasePage(client: OmbraClient, arg: string) {
  const [id, query] = splitArg(arg);
  if (!RECORD_ID.test(id)) return null;
  const r = await client.find('getApiWebReleaseReleaseId', { releaseId: id }, { limit: 1 });
  if (!r) return null;
  const files = await pagedTable({
    caption: 'Files of the release, by path',
    base: `release/${encodeURIComponent(r.releaseId)}`,
    query,
    load: async (p) => {
      const page = await client.read('getApiWebReleaseReleaseId', { releaseId: r.releaseId }, p);
      return { items: page.files, total: page.count };
    },
    head: ['path', 'file'],
    row: (f) => [el('span', { class: 'mono' }, f.path), idLink(`file/${f.fileId}`, f.fileId)],
    empty: 'No files.',
  });
  return pageOf(
    ['Release ', r.releaseId],
    section(
      'Release',
      fields('Release', [
        ['Release id', r.releaseId],
        ['Site', siteLink(r.siteId)],
        ['Number', `release ${r.seq} of its site`],
        ['Merkle root', fullId(r.merkleRoot, null, 'Merkle root')],
        ['Files', String(r.count)],
        ['Published', utc(r.publishedAt)],
        ['Block', el('a', { href: `#/block/${r.blockIndex}` }, `#${r.blockIndex}`)],
      ]),
    ),
    section('Files', files),
  );
}

export async function sitesPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  return pageOf(
    'Web drives',
    section(
      'Sites, newest first',
      await pagedTable({
        caption: 'Sites, newest first',
        base: 'sites',
        query,
        load: async (p) => {
          const r = await client.read('getApiWebSites', {}, p);
          return { items: r.sites, total: r.count };
        },
        head: ['site', 'name', 'owner', 'releases', 'active release', 'created'],
        row: (x) => [
          idLink(`site/${encodeURIComponent(x.siteId)}`, x.siteId, 16),
          x.name,
          addr(x.owner),
          String(x.releaseCount),
          x.activeReleaseId ? el('a', { href: `#/release/${encodeURIComponent(x.activeReleaseId)}` }, x.activeReleaseId) : none(),
          ageCell(x.createdAt),
        ],
        empty: 'No sites yet.',
      }),
    ),
  );
}

export async function filePage(client: OmbraClient, arg: string) {
  const [id] = splitArg(arg);
  if (!HASH.test(id)) return null;
  const f = await client.webFile(id.toLowerCase());
  if (!f) return null;
  return pageOf(
    ['File ', el('span', { class: 'mono' }, f.path)],
    section(
      'File',
      fields('Drive file', [
        ['File id', fullId(f.fileId, null, 'file id')],
        ['Status', badge(f.status)],
        ['Site', siteLink(f.siteId)],
        ['Path', el('span', { class: 'mono' }, f.path)],
        ['Content type', el('span', { class: 'mono' }, f.contentType)],
        ['Size', bytes(f.totalBytes)],
        ['Uploaded', `${f.received} of ${f.totalChunks} chunks, ${bytes(f.receivedBytes)}`],
        ['Content hash (SHA-256)', fullId(f.contentHash, null, 'content hash')],
        ['Owner', fullId(f.owner, `address/${f.owner}`, 'owner address')],
        ['Started', utc(f.createdAt)],
        ['Closed', f.closedAt === undefined ? none() : utc(f.closedAt)],
        ['Block', el('a', { href: `#/block/${f.blockIndex}` }, `#${f.blockIndex}`)],
        [
          'Content',
          f.status === 'complete' ? el('a', { href: `/api/web/file/${f.fileId}/content`, download: '' }, 'download the file') : none(),
        ],
      ]),
    ),
  );
}

export async function aliasPage(client: OmbraClient, arg: string) {
  const [raw] = splitArg(arg);
  const alias = raw.toLowerCase();
  if (!ALIAS.test(alias)) return null;
  const b = await client.webAliasBundle(alias);
  if (!b) return null;
  return pageOf(
    ['Alias ', alias],
    section(
      'Alias',
      fields('Alias', [
        ['Alias', alias],
        ['Live site', el('a', { href: client.webPageUrl(alias) }, `/web/${alias}/`)],
        ['Site', siteLink(b.siteId)],
        ['Active release', el('a', { href: `#/release/${encodeURIComponent(b.releaseId)}` }, b.releaseId)],
        ['Merkle root', fullId(b.merkleRoot, null, 'Merkle root')],
      ]),
    ),
    section('Files of the active release', filesTable(b)),
  );
}
