/** Stored content answers: ETag and 304, single byte ranges (206/416), If-Range, whole bodies otherwise. */
import fc from 'fast-check';
import { Hono } from 'hono';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentResponse, parseRange } from '../../../api/contentResponse.ts';
import { onError } from '../../../api/errors.ts';
import { sha256Hex } from '../../../core/hash.ts';

const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
const HASH = sha256Hex(BYTES.toString('latin1'));

/** An app serving BYTES in chunks of `chunk` bytes, counting the chunks it was asked for. */
function app(chunk = 64) {
  const read = { chunks: 0 };
  const h = new Hono();
  h.onError((e, c) => onError(e, c));
  h.get('/f', (c) => {
    async function* bytes() {
      for (let at = 0; at < BYTES.length; at += chunk) {
        read.chunks++;
        yield BYTES.subarray(at, at + chunk);
      }
    }
    return contentResponse(
      c,
      { contentType: 'audio/ogg', contentHash: HASH, size: BYTES.length, bytes: bytes() },
      { 'Cache-Control': 'x' },
    );
  });
  return { h, read };
}

test('a plain GET is 200 with every byte, the ETag, Accept-Ranges and the route headers', async () => {
  const res = await app().h.request('/f');
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('etag'), `"${HASH}"`);
  assert.equal(res.headers.get('accept-ranges'), 'bytes');
  assert.equal(res.headers.get('cache-control'), 'x');
  assert.equal(res.headers.get('content-type'), 'audio/ogg');
  assert.equal(res.headers.get('content-length'), '1000');
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(BYTES));
});

test('a matching If-None-Match (strong, weak, in a list or *) is 304 with no body', async () => {
  for (const v of [`"${HASH}"`, `W/"${HASH}"`, `"x", "${HASH}"`, '*']) {
    const res = await app().h.request('/f', { headers: { 'If-None-Match': v } });
    assert.equal(res.status, 304, v);
    assert.equal(await res.text(), '');
  }
  assert.equal((await app().h.request('/f', { headers: { 'If-None-Match': '"other"' } })).status, 200);
});

test('one byte range is 206 with exactly those bytes and Content-Range, reading no chunk past it', async () => {
  const { h, read } = app();
  const res = await h.request('/f', { headers: { Range: 'bytes=100-199' } });
  assert.equal(res.status, 206);
  assert.equal(res.headers.get('content-range'), 'bytes 100-199/1000');
  assert.equal(res.headers.get('content-length'), '100');
  assert.ok(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(100, 200)));
  assert.equal(read.chunks, 4);
  const tail = await app().h.request('/f', { headers: { Range: 'bytes=-10' } });
  assert.ok(Buffer.from(await tail.arrayBuffer()).equals(BYTES.subarray(990)));
  const open = await app().h.request('/f', { headers: { Range: 'bytes=995-' } });
  assert.equal(open.headers.get('content-range'), 'bytes 995-999/1000');
});

test('a range past the end is 416 {error, code} with Content-Range: bytes */size', async () => {
  const res = await app().h.request('/f', { headers: { Range: 'bytes=1000-' } });
  assert.equal(res.status, 416);
  assert.equal(res.headers.get('content-range'), 'bytes */1000');
  assert.equal(((await res.json()) as { code: string }).code, 'RANGE_NOT_SATISFIABLE');
});

test('several ranges, other units, junk and a stale If-Range get the whole content', async () => {
  for (const headers of [
    { Range: 'bytes=0-1,5-6' },
    { Range: 'items=0-1' },
    { Range: 'bytes=x' },
    { Range: 'bytes=5-1' },
    { Range: 'bytes=0-9', 'If-Range': '"stale"' },
  ]) {
    const res = await app().h.request('/f', { headers });
    assert.equal(res.status, 200, JSON.stringify(headers));
    assert.equal((await res.arrayBuffer()).byteLength, 1000);
  }
});

test('property: any header gives the whole content, exactly the asked slice, or unsatisfiable', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.tuple(fc.nat(2000), fc.nat(2000)).map(([a, b]) => `bytes=${a}-${b}`),
        fc.nat(2000).map((n) => `bytes=-${n}`),
      ),
      fc.nat(1500),
      (header, size) => {
        const r = parseRange(header, size);
        if (r === undefined || r === 'unsatisfiable') return;
        const [start, end] = r;
        assert.ok(start >= 0 && start <= end && end < size, `${header} of ${size}: ${r}`);
      },
    ),
  );
});

test('property: for every chunk size and range the served slice equals the same slice of the bytes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.nat(999), fc.nat(999), async (chunk, a, b) => {
      const [start, end] = a <= b ? [a, b] : [b, a];
      const res = await app(chunk).h.request('/f', { headers: { Range: `bytes=${start}-${end}` } });
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(BYTES.subarray(start, end + 1)));
    }),
    { numRuns: 200 },
  );
});
