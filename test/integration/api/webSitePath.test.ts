/**
 * The site route as the OpenAPI document and the client's route table write it,
 * `/web/{alias}/{path}`: one parameter for the rest of the URL, so a file in a folder is the
 * same file whether a client writes its path out or fills the template in (percent-encoded
 * whole), and an empty path is the site's index.html.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../../../api/endpoints/index.ts';
import { openApiPath } from '../../../api/openapi/document.ts';
import { pathOf } from '../../../client/reads.ts';
import { manifestRoot } from '../../../core/tx/web/webRecords.ts';
import { assertError, get, withChain } from '../../helpers/apiSupport.ts';
import { accepted, siteFile, upload } from '../../helpers/webKit.ts';

const SITE = 'folders';

test('a file in a folder answers at its path written out and at the filled-in template; an empty path is index.html', () =>
  withChain(async (c) => {
    assert.equal(openApiPath(ENDPOINTS.getWebAliasPath.path), '/web/{alias}/{path}');
    await accepted(c, 0, { type: 'WEB_SITE_REGISTER', siteId: SITE, name: 'Folders' });
    await c.produce(3);
    const index = siteFile(SITE, '/index.html', '<h1>folders</h1>');
    const css = siteFile(SITE, '/css/site.css', 'h1{color:rgb(4, 5, 6)}');
    await upload(c, 0, SITE, index);
    await upload(c, 0, SITE, css, 'text/css');
    const files = [css, index].sort((a, b) => (a.path < b.path ? -1 : 1));
    await accepted(c, 0, {
      type: 'WEB_RELEASE_PUBLISH',
      siteId: SITE,
      releaseId: 'f1',
      manifest: files.map((f) => ({ path: f.path, fileId: f.fileId })),
      merkleRoot: manifestRoot(files),
    });
    await c.produce();
    await accepted(c, 0, { type: 'WEB_RELEASE_ACTIVATE', siteId: SITE, releaseId: 'f1' });
    await accepted(c, 0, { type: 'WEB_ALIAS_SET', siteId: SITE, alias: 'folders' });
    await c.produce();
    const filled = pathOf('getWebAliasPath', { alias: 'folders', path: 'css/site.css' });
    assert.equal(filled, '/web/folders/css%2Fsite.css');
    for (const url of ['/web/folders/css/site.css', filled]) {
      const res = await c.app.request(url);
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get('content-type'), 'text/css; charset=utf-8', url);
      assert.equal(await res.text(), 'h1{color:rgb(4, 5, 6)}', url);
    }
    for (const url of ['/web/folders/', pathOf('getWebAliasPath', { alias: 'folders', path: 'index.html' })]) {
      const res = await c.app.request(url);
      assert.equal(res.status, 200, url);
      assert.equal(await res.text(), '<h1>folders</h1>', url);
    }
    // A folder without an index.html of its own, written out or encoded.
    assertError(await get(c, '/web/folders/css/'), 404, 'NOT_FOUND');
    assertError(await get(c, pathOf('getWebAliasPath', { alias: 'folders', path: 'css/' })), 404, 'NOT_FOUND');
  }));
