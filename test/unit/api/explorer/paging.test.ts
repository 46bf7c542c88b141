/**
 * The explorer's paging (api/explorer/paging.ts), without a browser: a route's argument and
 * query, page numbers from any query, links that keep the other filters, the "a–b of N" line,
 * and the shell's hash parsing (`#/blocks?page=2` and `#/blocks/?page=2` alike).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { countLine, lastPage, PAGE_SIZE, pageNumber, parseHash, splitArg, withParam } from '../../../../api/explorer/paging.ts';

test('a route argument splits into its id and query; trailing slashes go', () => {
  const [id, q] = splitArg('oxabc/?page=2&type=TRANSFER');
  assert.equal(id, 'oxabc');
  assert.equal(q.get('page'), '2');
  assert.equal(q.get('type'), 'TRANSFER');
  assert.deepEqual(splitArg('12')[0], '12');
  assert.equal(splitArg('')[1].size, 0);
});

test('the page a query asks for is a whole number from 1 to 1,000,000, whatever the query holds', () => {
  assert.equal(pageNumber(new URLSearchParams('page=3')), 3);
  assert.equal(pageNumber(new URLSearchParams('page=2.9')), 2);
  for (const bad of ['', 'page=0', 'page=-4', 'page=x', 'page=NaN']) assert.equal(pageNumber(new URLSearchParams(bad)), 1, bad);
  assert.equal(pageNumber(new URLSearchParams('page=1e9')), 1e6);
  assert.equal(pageNumber(new URLSearchParams('page=Infinity')), 1e6);
  fc.assert(
    fc.property(fc.string(), (s) => {
      const n = pageNumber(new URLSearchParams({ page: s }));
      assert.ok(Number.isInteger(n) && n >= 1 && n <= 1e6, `${s} -> ${n}`);
    }),
  );
});

test('page links keep the other parameters; a route without an argument keeps its slash; page 1 has no page parameter', () => {
  const q = new URLSearchParams('status=open&page=2');
  assert.equal(withParam('tasks', q, 'page', 3), '#/tasks/?status=open&page=3');
  assert.equal(withParam('tasks', q, 'page', null), '#/tasks/?status=open');
  assert.equal(withParam('address/oxab', new URLSearchParams('page=2'), 'page', null), '#/address/oxab');
  assert.equal(withParam('address/oxab', new URLSearchParams(), 'page', 2), '#/address/oxab?page=2');
  assert.equal(q.get('page'), '2', 'the query given is left as it was');
});

test('the count line and the last page, with and without a total', () => {
  assert.equal(countLine(1, 25, 1234), '1–25 of 1,234');
  assert.equal(countLine(2, 3, 28), '26–28 of 28');
  assert.equal(countLine(3, 25, null), '51–75');
  assert.equal(countLine(1, 0, 0), '0 of 0');
  assert.equal(countLine(1, 0, null), 'none');
  assert.equal(lastPage(0), 1);
  assert.equal(lastPage(PAGE_SIZE), 1);
  assert.equal(lastPage(PAGE_SIZE + 1), 2);
  assert.equal(lastPage(null), null);
});

test('a hash names a page and its argument, with the query in either place', () => {
  assert.deepEqual(parseHash('#/blocks?page=2'), ['blocks', '?page=2']);
  assert.deepEqual(parseHash('#/blocks/?page=2'), ['blocks', '?page=2']);
  assert.deepEqual(parseHash('#/address/ox12?since=2026-11-01'), ['address', 'ox12?since=2026-11-01']);
  assert.deepEqual(parseHash('#/search/a%20b'), ['search', 'a b']);
  assert.deepEqual(parseHash(''), ['', '']);
});
