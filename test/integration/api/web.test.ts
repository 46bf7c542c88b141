/**
 * The web drive through the API: capacity arithmetic across INIT, dedup, delete and transfer;
 * owner-only writes; releases (manifest order, Merkle root, files of the site); activation and
 * rollback; deletion rules; the /api/web reads and the /web/:alias static site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STORAGE_QUOTA_PER_BLOCK } from '../../../core/genesis.ts';
import { manifestRoot } from '../../../core/tx/web/webRecords.ts';
import { DEV_KEYS, type TestChain } from '../../helpers/testChain.ts';
import { assertError, get, heldAccount, snapshot, withChain } from '../../helpers/apiSupport.ts';
import { accepted, sendTx, siteFile, upload } from '../../helpers/webKit.ts';

const A = (i: number) => DEV_KEYS[i].address;
const storage = (c: TestChain, i: number) => {
  const a = heldAccount(c, A(i));
  return { capacity: a.storageCapacity, used: a.storageUsed };
};
const SITE = 'my-site';
const publish = (files: { path: string; fileId: string }[], releaseId: string, root = manifestRoot(files)) => ({
  type: 'WEB_RELEASE_PUBLISH',
  siteId: SITE,
  releaseId,
  manifest: files.map((f) => ({ path: f.path, fileId: f.fileId })),
  merkleRoot: root,
});

test('capacity is exact across blocks, INIT (fee 0), an identical INIT, an over-capacity INIT, delete and STORAGE_TRANSFER', () =>
  withChain(async (c) => {
    await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: SITE, name: 'Mine' });
    await c.produce(2);
    assert.deepEqual(storage(c, 0), { capacity: 2n * STORAGE_QUOTA_PER_BLOCK, used: 0n });
    const page = siteFile(SITE, '/index.html', 'x'.repeat(5000));
    await upload(c, 0, SITE, page);
    // Three more blocks credited; the file holds exactly its bytes.
    assert.deepEqual(storage(c, 0), { capacity: 5n * STORAGE_QUOTA_PER_BLOCK, used: 5000n });
    // The same file again (same site, path, bytes) costs nothing, even beyond the free capacity.
    const big = siteFile(SITE, '/big.bin', Buffer.alloc(20_000, 7));
    const before = snapshot(c);
    const over = await sendTx(c, 0, {
      type: 'WEB_FILE_INIT',
      siteId: SITE,
      path: big.path,
      contentType: 'application/octet-stream',
      totalBytes: big.totalBytes,
      totalChunks: 1,
      contentHash: big.contentHash,
    });
    assertError(over, 400, 'INSUFFICIENT_STORAGE', 'insufficient storage: need 20000 bytes, free 15480');
    assert.deepEqual(snapshot(c), before, 'nothing changed');
    const { totalBytes, totalChunks, contentHash } = page;
    await accepted(c, 0, {
      type: 'WEB_FILE_INIT',
      siteId: SITE,
      path: page.path,
      contentType: 'text/html',
      totalBytes,
      totalChunks,
      contentHash,
    });
    await c.produce();
    assert.deepEqual(storage(c, 0), { capacity: 6n * STORAGE_QUOTA_PER_BLOCK, used: 5000n });
    // STORAGE_TRANSFER moves free bytes only.
    assertError(
      await sendTx(c, 0, { type: 'STORAGE_TRANSFER', to: A(3), bytes: String(6 * 4096 - 5000 + 1) }),
      400,
      'INSUFFICIENT_STORAGE',
    );
    await accepted(c, 0, { type: 'STORAGE_TRANSFER', to: A(3), bytes: '10000' });
    await c.produce();
    assert.deepEqual(storage(c, 0), { capacity: 7n * STORAGE_QUOTA_PER_BLOCK - 10000n, used: 5000n });
    assert.deepEqual(storage(c, 3), { capacity: 10000n, used: 0n });
    // Deleting frees exactly the file's bytes.
    await accepted(c, 0, { type: 'WEB_FILE_DELETE', fileId: page.fileId });
    await c.produce();
    assert.deepEqual(storage(c, 0), { capacity: 8n * STORAGE_QUOTA_PER_BLOCK - 10000n, used: 0n });
  }));

test('only the owner writes to a site; a taken siteId, alias or releaseId is refused', () =>
  withChain(async (c) => {
    await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: SITE, name: 'Mine' });
    await c.produce(3);
    await accepted(c, 0, { type: 'STORAGE_TRANSFER', to: A(1), bytes: '4000' });
    await c.produce();
    const page = siteFile(SITE, '/index.html', '<h1>hi</h1>');
    await upload(c, 0, SITE, page);
    const before = snapshot(c);
    assertError(
      await sendTx(c, 1, { type: 'WEB_SITE_REGISTER', siteId: SITE, name: 'Theirs' }),
      422,
      'VALIDATION_FAILED',
      'site my-site already exists',
    );
    const init = {
      type: 'WEB_FILE_INIT',
      siteId: SITE,
      path: '/x.html',
      contentType: 'text/html',
      totalBytes: 3,
      totalChunks: 1,
      contentHash: 'ab'.repeat(32),
    };
    assertError(await sendTx(c, 1, init), 422, 'VALIDATION_FAILED', /only the site's owner/);
    assertError(
      await sendTx(c, 1, { type: 'WEB_FILE_CHUNK', fileId: page.fileId, chunkIndex: 0, dataBase64: 'aGk=' }),
      422,
      'VALIDATION_FAILED',
      /belongs to/,
    );
    assertError(await sendTx(c, 1, publish([page], 'r1')), 422, 'VALIDATION_FAILED', /only the site's owner/);
    assertError(
      await sendTx(c, 1, { type: 'WEB_ALIAS_SET', siteId: SITE, alias: 'mine' }),
      422,
      'VALIDATION_FAILED',
      /only the site's owner/,
    );
    assertError(await sendTx(c, 1, { type: 'WEB_FILE_DELETE', fileId: page.fileId }), 422, 'VALIDATION_FAILED', /only the site's owner/);
    assert.deepEqual(snapshot(c), before);
    await accepted(c, 0, publish([page], 'r1'));
    await accepted(c, 0, { type: 'WEB_ALIAS_SET', siteId: SITE, alias: 'mine' });
    await accepted(c, 1, { type: 'WEB_SITE_REGISTER', siteId: 'their-site', name: 'Theirs' });
    await c.produce();
    assertError(
      await sendTx(c, 1, { type: 'WEB_ALIAS_SET', siteId: 'their-site', alias: 'mine' }),
      422,
      'VALIDATION_FAILED',
      /alias mine belongs to/,
    );
    assertError(await sendTx(c, 0, publish([page], 'r1')), 422, 'VALIDATION_FAILED', 'release r1 already exists');
  }));

test('a release needs a sorted manifest of complete files of the site and the right Merkle root; delete and rollback rules', () =>
  withChain(async (c) => {
    await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: SITE, name: 'Mine' });
    await c.produce(3);
    const a = siteFile(SITE, '/a.html', 'A1');
    const b = siteFile(SITE, '/b.css', 'body{color:red}');
    await upload(c, 0, SITE, a);
    await upload(c, 0, SITE, b);
    const half = siteFile(SITE, '/c.txt', 'unfinished');
    await accepted(c, 0, {
      type: 'WEB_FILE_INIT',
      siteId: SITE,
      path: half.path,
      contentType: 'text/plain',
      totalBytes: half.totalBytes,
      totalChunks: 1,
      contentHash: half.contentHash,
    });
    // A wrong hash on completion: the bytes of another content.
    const liar = siteFile(SITE, '/d.txt', 'declared');
    await accepted(c, 0, {
      type: 'WEB_FILE_INIT',
      siteId: SITE,
      path: liar.path,
      contentType: 'text/plain',
      totalBytes: 8,
      totalChunks: 1,
      contentHash: liar.contentHash,
    });
    await c.produce();
    await accepted(c, 0, {
      type: 'WEB_FILE_CHUNK',
      fileId: liar.fileId,
      chunkIndex: 0,
      dataBase64: Buffer.from('replaced').toString('base64'),
    });
    await c.produce();
    assertError(await sendTx(c, 0, { type: 'WEB_FILE_FINALIZE', fileId: liar.fileId }), 422, 'VALIDATION_FAILED', /SHA-256 of its bytes/);
    const before = snapshot(c);
    assertError(await sendTx(c, 0, publish([a, b], 'r1', 'ab'.repeat(32))), 422, 'VALIDATION_FAILED', /does not match the manifest's root/);
    assertError(
      await sendTx(c, 0, publish([b, a], 'r1')),
      422,
      'VALIDATION_FAILED',
      'manifest is not sorted by path: /a.html after /b.css',
    );
    assertError(await sendTx(c, 0, publish([a, a], 'r1')), 422, 'VALIDATION_FAILED', 'manifest names /a.html twice');
    assertError(await sendTx(c, 0, publish([a, half], 'r1')), 422, 'VALIDATION_FAILED', /is pending, not complete/);
    assertError(
      await sendTx(c, 0, publish([{ path: '/z.html', fileId: a.fileId }], 'r1')),
      422,
      'VALIDATION_FAILED',
      /was uploaded as \/a.html/,
    );
    assert.deepEqual(snapshot(c), before);
    await accepted(c, 0, publish([a, b], 'r1'));
    await c.produce();
    await accepted(c, 0, { type: 'WEB_RELEASE_ACTIVATE', siteId: SITE, releaseId: 'r1' });
    await c.produce();
    assertError(await sendTx(c, 0, { type: 'WEB_FILE_DELETE', fileId: a.fileId }), 422, 'VALIDATION_FAILED', /is in the active release r1/);
    const a2 = siteFile(SITE, '/a.html', 'A2');
    await upload(c, 0, SITE, a2);
    await accepted(c, 0, publish([a2, b], 'r2'));
    await c.produce();
    await accepted(c, 0, { type: 'WEB_RELEASE_ACTIVATE', siteId: SITE, releaseId: 'r2' });
    await c.produce();
    // a is no longer served: it may go; r1 then cannot come back.
    await accepted(c, 0, { type: 'WEB_FILE_DELETE', fileId: a.fileId });
    await c.produce();
    assertError(
      await sendTx(c, 0, { type: 'WEB_RELEASE_ACTIVATE', siteId: SITE, releaseId: 'r1' }),
      422,
      'VALIDATION_FAILED',
      /was deleted/,
    );
    assertError(await get(c, `/api/web/file/${a.fileId}/content`), 404, 'NOT_FOUND');
    const bundle = await get(c, '/api/web/release/r1/bundle');
    assert.deepEqual(
      bundle.body.files.map((f: { path: string }) => f.path),
      ['/b.css'],
      'a deleted file leaves the bundle',
    );
    const sites = await get(c, `/api/web/site/${SITE}/releases`);
    assert.deepEqual(sites.body.activeReleaseId, 'r2');
    assert.deepEqual(
      sites.body.releases.map((r: { releaseId: string }) => r.releaseId),
      ['r2', 'r1'],
    );
  }));

test('reads: releases, bundles, content with ETag and 304, and the alias served as a static site', () =>
  withChain(async (c) => {
    await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: SITE, name: 'Mine' });
    await c.produce(3);
    const index = siteFile(SITE, '/index.html', '<link rel="stylesheet" href="s.css"><h1>hello</h1>', 10);
    const css = siteFile(SITE, '/s.css', 'h1{color:rgb(1, 2, 3)}');
    await upload(c, 0, SITE, index);
    await upload(c, 0, SITE, css, 'text/css');
    await accepted(c, 0, publish([index, css], 'v1'));
    await c.produce();
    await accepted(c, 0, { type: 'WEB_RELEASE_ACTIVATE', siteId: SITE, releaseId: 'v1' });
    await accepted(c, 0, { type: 'WEB_ALIAS_SET', siteId: SITE, alias: 'hello' });
    await c.produce();
    const list = await get(c, `/api/web/site/${SITE}/releases`);
    assert.deepEqual(list.body, {
      siteId: SITE,
      owner: A(0),
      name: 'Mine',
      activeReleaseId: 'v1',
      total: 1,
      releases: [
        {
          releaseId: 'v1',
          merkleRoot: manifestRoot([index, css]),
          files: 2,
          publishedAt: list.body.releases[0].publishedAt,
          blockIndex: c.node.head().index - 1,
        },
      ],
    });
    // Streamed piece by piece, the body is still exactly the compact JSON of the whole bundle.
    const streamed = await c.app.request('/api/web/alias/hello/bundle');
    assert.equal(streamed.headers.get('content-type'), 'application/json');
    const text = await streamed.text();
    const bundle = JSON.parse(text);
    assert.equal(text, JSON.stringify(bundle));
    assert.deepEqual(Object.keys(bundle), ['releaseId', 'siteId', 'merkleRoot', 'files']);
    assert.deepEqual(Object.keys(bundle.files[1]), ['path', 'fileId', 'contentType', 'size', 'chunks']);
    assert.deepEqual(
      bundle.files.map((f: { path: string; size: number }) => [f.path, f.size]),
      [
        ['/index.html', index.bytes.length],
        ['/s.css', css.bytes.length],
      ],
    );
    assert.equal(bundle.files[0].chunks.length, index.totalChunks);
    assert.equal(Buffer.concat(bundle.files[0].chunks.map((x: string) => Buffer.from(x, 'base64'))).toString(), index.bytes.toString());
    const page = await c.app.request('/web/hello/');
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('etag'), `"${index.contentHash}"`);
    assert.match(page.headers.get('content-security-policy') ?? '', /^sandbox /);
    assert.equal(await page.text(), index.bytes.toString());
    assert.equal((await c.app.request('/web/hello/s.css')).headers.get('content-type'), 'text/css; charset=utf-8');
    const again = await c.app.request('/web/hello/index.html', { headers: { 'If-None-Match': `"${index.contentHash}"` } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    const raw = await c.app.request(`/api/web/file/${css.fileId}/content`);
    assert.equal(raw.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(await raw.text(), 'h1{color:rgb(1, 2, 3)}');
    assert.equal((await c.app.request('/web/hello')).headers.get('location'), '/web/hello/');
    assertError(await get(c, '/web/hello/missing.html'), 404, 'NOT_FOUND');
    // Encoded separators decode inside the drive path, where dot segments and backslashes are never files.
    assertError(await get(c, '/web/hello/%2e%2e%2f%2e%2e%2fapi%2fhealth'), 404, 'NOT_FOUND');
    assertError(await get(c, '/web/hello/..%5c..%5cindex.html'), 404, 'NOT_FOUND');
    assertError(await get(c, '/web/hello/.%2findex.html'), 404, 'NOT_FOUND');
    assertError(await get(c, '/web/hello/%E0%A4%A'), 404, 'NOT_FOUND');
    assertError(await get(c, '/web/nobody/'), 404, 'NOT_FOUND');
    assertError(await get(c, '/web/NO/'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/web/site/x/releases'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/web/site/nobody/releases'), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/web/release/nope/bundle'), 404, 'NOT_FOUND');
    assertError(await get(c, `/api/web/file/${'ab'.repeat(32)}/content`), 404, 'NOT_FOUND');
    const info = await get(c, `/api/web/file/${css.fileId}`);
    assert.deepEqual([info.body.status, info.body.path, info.body.totalBytes], ['complete', '/s.css', css.totalBytes]);
  }));

test('/web/<unknown>/ says no such site; a site with no active release and a missing file each say so', () =>
  withChain(async (c) => {
    for (const path of ['/web/nobody/', '/web/nobody/index.html', '/web/nobody/a/b.css'])
      assertError(await get(c, path), 404, 'NOT_FOUND', 'no such site: nobody');
    await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: SITE, name: 'Mine' });
    await c.produce();
    await accepted(c, 0, { type: 'WEB_ALIAS_SET', siteId: SITE, alias: 'empty' });
    await c.produce();
    assertError(await get(c, '/web/empty/'), 404, 'NOT_FOUND', 'site empty has no active release');
  }));
