/**
 * Drive paths and release manifests, property-tested: the path rule never admits a dot segment,
 * an empty segment or a character a browser cannot address; a manifest passes exactly when its
 * paths strictly ascend; the Merkle root is the txRoot algorithm over SHA-256(path + fileId) and
 * moves with any entry; lookup finds every entry and nothing else. The CLI's path mapping agrees.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drivePathOf } from '../../../api/resources/web/webRoutes.ts';
import { merkleRoot, sha256Hex } from '../../../core/hash.ts';
import { manifestLookup, manifestProblem, manifestRoot, webPathProblem } from '../../../core/tx/web/webRecords.ts';

const segment = fc.stringMatching(/^[A-Za-z0-9._~%-]{1,12}$/).filter((s) => s !== '.' && s !== '..');
const goodPath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((segs) => `/${segs.join('/')}`);
const fileId = fc.stringMatching(/^[0-9a-f]{64}$/);
const manifest = fc.uniqueArray(fc.record({ path: goodPath, fileId }), { minLength: 1, maxLength: 40, selector: (e) => e.path });
const sorted = <T extends { path: string }>(m: T[]) => [...m].sort((a, b) => (a.path < b.path ? -1 : 1));

test('a path of plain segments passes; any dot segment, empty segment, trailing slash, \\, ? or # is refused', () => {
  fc.assert(fc.property(goodPath, (p) => webPathProblem(p) === null));
  const bad = fc
    .tuple(goodPath, fc.constantFrom('/.', '/..', '//', '/', '\\', '?', '#'), fc.constantFrom('', '/x'))
    .map(([p, b, tail]) => `${p}${b}${tail}`);
  fc.assert(fc.property(bad, (p) => webPathProblem(p) !== null));
  fc.assert(fc.property(fc.string(), (p) => webPathProblem(p) === null || typeof webPathProblem(p) === 'string'));
});

test('a manifest is accepted exactly when its paths strictly ascend', () => {
  fc.assert(fc.property(manifest, (m) => manifestProblem(sorted(m)) === null));
  fc.assert(
    fc.property(
      manifest.filter((m) => m.length > 1),
      fc.nat(),
      (m, i) => {
        const s = sorted(m);
        const k = 1 + (i % (s.length - 1));
        const swapped = [...s];
        [swapped[k - 1], swapped[k]] = [swapped[k], swapped[k - 1]];
        const duplicated = [...s.slice(0, k), { ...s[k - 1] }, ...s.slice(k)];
        return manifestProblem(swapped) !== null && manifestProblem(duplicated) !== null;
      },
    ),
  );
  assert.equal(manifestProblem([]), 'manifest must name at least one file');
});

test('the root is the txRoot algorithm over SHA-256(path + fileId) and changes with any entry; lookup finds exactly the entries', () => {
  fc.assert(
    fc.property(manifest, fileId, fc.nat(), (m, other, i) => {
      const s = sorted(m);
      const root = manifestRoot(s);
      if (root !== merkleRoot(s.map((e) => sha256Hex(e.path + e.fileId)))) return false;
      const k = i % s.length;
      const changed = s.map((e, j) => (j === k ? { ...e, fileId: other } : e));
      if (other !== s[k].fileId && manifestRoot(changed) === root) return false;
      return s.every((e) => manifestLookup(s, e.path) === e.fileId) && manifestLookup(s, `${s[k].path}/missing`) === undefined;
    }),
  );
});

test('a request path maps to a drive path: folders to index.html, malformed escapes and unsafe paths to nothing', () => {
  const encoded = (p: string) => p.split('/').map(encodeURIComponent).join('/');
  fc.assert(fc.property(goodPath, (p) => drivePathOf(`${encoded(p)}/`) === `${p}/index.html` && drivePathOf(encoded(p)) === p));
  assert.equal(drivePathOf('/'), '/index.html');
  assert.equal(drivePathOf('/a%20b.html'), undefined, 'a space is not a drive path character');
  assert.equal(drivePathOf('/%E0%A4%A'), undefined);
  assert.equal(drivePathOf('/%2e%2e%2fx'), undefined);
  fc.assert(
    fc.property(fc.string({ maxLength: 80 }), (s) => {
      const p = drivePathOf(`/${s}`);
      return p === undefined || webPathProblem(p) === null;
    }),
  );
});
