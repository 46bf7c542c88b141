/**
 * User content never runs as the node's origin: every route that serves stored user bytes (the
 * OpenAPI document's content routes, and the art NFT's SVG) answers with `nosniff` and a
 * sandboxing CSP, on 200, 206 and 304 alike, whatever content type the uploader chose.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import { contentTypeOf } from '../../../core/media/mediaFacts.ts';
import { manifestRoot } from '../../../core/tx/web/webRecords.ts';
import { EXPECTED, fixture } from '../../helpers/mediaFixtures.ts';
import { DEV_KEYS, type TestChain } from '../../helpers/testChain.ts';
import { fullTask, registerMiner, send } from '../../helpers/economy.ts';
import { mediaTask, mintFields, uploadBlob } from '../../helpers/mediaKit.ts';
import { get, withChain } from '../../helpers/apiSupport.ts';
import { accepted, siteFile, upload } from '../../helpers/webKit.ts';

const ATTACK = '<script>fetch("/api/keys/register",{method:"POST"})</script>';
const SCRIPT = 'fetch("/api/keys/register",{method:"POST"})';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>';

/** One of each kind of user content: a drive HTML file, an HTML blob, an image and an audio NFT, an art NFT. */
async function everyKind(c: TestChain): Promise<Record<string, string>> {
  for (const i of [2, 3]) await registerMiner(c, i);
  await c.produce();
  await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: 'evil-site', name: 'Evil' });
  await c.produce(3);
  const page = siteFile('evil-site', '/index.html', ATTACK);
  await upload(c, 0, 'evil-site', page, 'text/html');
  const script = siteFile('evil-site', '/app.js', SCRIPT);
  await upload(c, 0, 'evil-site', script, 'text/javascript');
  const manifest = [
    { path: script.path, fileId: script.fileId },
    { path: page.path, fileId: page.fileId },
  ];
  await accepted(c, 0, { type: 'WEB_RELEASE_PUBLISH', siteId: 'evil-site', releaseId: 'v1', manifest, merkleRoot: manifestRoot(manifest) });
  await c.produce();
  await accepted(c, 0, { type: 'WEB_RELEASE_ACTIVATE', siteId: 'evil-site', releaseId: 'v1' });
  await accepted(c, 0, { type: 'WEB_ALIAS_SET', siteId: 'evil-site', alias: 'evil' });
  await c.produce();
  const htmlBlob = await uploadBlob(c, 4, new TextEncoder().encode(ATTACK.repeat(3)), 'text/html');
  const nfts: Record<string, string> = {};
  for (const name of Object.keys(EXPECTED)) {
    const facts = EXPECTED[name];
    const kind = 'width' in facts ? 'image' : 'audio';
    if (nfts[kind]) continue;
    const blobId = await uploadBlob(c, 2, fixture(name), contentTypeOf(facts.format));
    const m = mintFields(await mediaTask(c, kind, blobId), blobId, facts, DEV_KEYS[5].address);
    await send(c, 1, m.type, m.fields);
    await c.produce();
    nfts[kind] = m.fields.tokenId;
  }
  const { taskId, reward } = await fullTask(c, { taskType: 'nft_svg', prompt: 'a square' }, [SVG, '<svg></svg>']);
  const task = c.node.state().records.tasks.get(taskId)!;
  const art = sha256Hex(taskId + SVG);
  const seedHash = sha256Hex(`a square${task.bestMinerId}${reward.hash}`);
  await send(c, 1, 'ART_MINT', {
    tokenId: art,
    svg: SVG,
    owner: DEV_KEYS[5].address,
    taskId,
    minerId: task.bestMinerId,
    seedHash,
    fee: '1000',
  });
  await c.produce();
  return {
    '/api/web/file/{fileId}/content': `/api/web/file/${page.fileId}/content`,
    '/web/{alias}/{path}': '/web/evil/index.html',
    script: `/api/web/file/${script.fileId}/content`,
    'site script': '/web/evil/app.js',
    '/api/social/blob/{blobId}': `/api/social/blob/${htmlBlob}`,
    '/api/image/{tokenId}/file': `/api/image/${nfts.image}/file`,
    '/api/audio/{tokenId}/file': `/api/audio/${nfts.audio}/file`,
    '/api/nft/{tokenId}/svg': `/api/nft/${art}/svg`,
  };
}

/** The documented routes that serve stored content (they take a Range header), plus the art SVG. */
async function contentRoutes(c: TestChain): Promise<string[]> {
  const doc = (await get(c, '/api/openapi.json')).body as {
    paths: Record<string, { get?: { parameters?: { in: string; name: string }[] } }>;
  };
  const ranged = Object.entries(doc.paths)
    .filter(([, ops]) => ops.get?.parameters?.some((p) => p.in === 'header' && p.name === 'Range'))
    .map(([path]) => path);
  return [...ranged, '/api/nft/{tokenId}/svg'].sort();
}

test('every route serving user bytes answers nosniff and a sandbox CSP on 200, 206 and 304', () =>
  withChain(async (c) => {
    const { script: _s, 'site script': _ss, ...served } = await everyKind(c);
    assert.deepEqual(Object.keys(served).sort(), await contentRoutes(c), 'every content route is exercised here');
    for (const [route, path] of Object.entries(served)) {
      const full = await c.app.request(path);
      assert.equal(full.status, 200, `${route}: ${await full.clone().text()}`);
      const etag = full.headers.get('etag');
      const answers = [full, await c.app.request(path, { headers: { Range: 'bytes=0-3' } })];
      if (etag) answers.push(await c.app.request(path, { headers: { 'If-None-Match': etag } }));
      for (const res of answers) {
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${route} ${res.status}`);
        assert.match(res.headers.get('content-security-policy') ?? '', /(^|;)\s*sandbox\b/, `${route} ${res.status}`);
      }
    }
    // The drive file opened by its id may not run its script at all; the site page runs it in an opaque origin.
    const raw = await c.app.request(served['/api/web/file/{fileId}/content']);
    assert.equal(raw.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.doesNotMatch(raw.headers.get('content-security-policy') ?? '', /allow-scripts|allow-same-origin/);
    assert.match(raw.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  }));

/** The Fetch Metadata a browser sends for a request of a page: its destination and the page's relation to the URL. */
const fetchedAs = (dest: string, site: string) => ({ 'Sec-Fetch-Dest': dest, 'Sec-Fetch-Site': site, 'Sec-Fetch-Mode': 'no-cors' });

test("an uploaded text/javascript file never runs as script on the explorer's origin: its own pages' script, worker and style requests are refused", () =>
  withChain(async (c) => {
    const { script, 'site script': siteScript, ...rest } = await everyKind(c);
    // The explorer page admits scripts of its own origin: the attack needs the node to answer one.
    const explorer = await c.app.request('/');
    assert.match(explorer.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    for (const path of [script, siteScript, ...Object.values(rest)]) {
      for (const dest of ['script', 'worker', 'sharedworker', 'serviceworker', 'style']) {
        const res = await c.app.request(path, { headers: fetchedAs(dest, 'same-origin') });
        // Before: 200 text/javascript, which `<script src>` on the explorer runs as the node's origin.
        assert.equal(res.status, 403, `${dest} ${path}`);
        assert.deepEqual(await res.json(), {
          error: `user content is not served to this node's own pages as ${dest}`,
          code: 'USER_CONTENT_AS_SCRIPT',
        });
        // No 2xx and no script type: a browser runs neither.
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      }
      // A revalidation asked as script is refused too, not answered 304 from an earlier copy.
      const etag = (await c.app.request(path)).headers.get('etag');
      if (etag)
        assert.equal(
          (await c.app.request(path, { headers: { ...fetchedAs('script', 'same-origin'), 'If-None-Match': etag } })).status,
          403,
        );
    }
    // The drive site's own page loads its script from its opaque origin (cross-site): served, as before.
    const own = await c.app.request(siteScript, { headers: fetchedAs('script', 'cross-site') });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await own.text(), SCRIPT);
    // Opened, embedded as media or framed by this origin: served; every answer varies on the metadata, so no cache reuses it for a script.
    for (const [dest, site] of [
      ['document', 'none'],
      ['iframe', 'same-origin'],
      ['image', 'same-origin'],
      ['audio', 'same-origin'],
    ]) {
      const res = await c.app.request(script, { headers: fetchedAs(dest, site) });
      assert.equal(res.status, 200, `${dest} ${site}`);
      assert.equal(res.headers.get('vary'), 'Sec-Fetch-Dest, Sec-Fetch-Site');
    }
    assert.equal((await c.app.request(script)).status, 200, 'a client that sends no metadata (curl) is served');
  }));
