/** Block reads: /api/chain/block/:index, /block/hash/:hash, /blocks, /blocks?from=&to=, /blocks-full, /genesis. */
import { after, before, test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.ts';
import { DEV_KEYS, openTestChain, testApiDeps, type TestChain } from '../../helpers/testChain.ts';
import { ADDRESS, assertError, assertKeys, get, HASH } from '../../helpers/apiSupport.ts';

const BLOCK_KEYS = [
  'index',
  'hash',
  'previousHash',
  'timestamp',
  'proposer',
  'txRoot',
  'stateRoot',
  'tokensBurned',
  'tokensConsumed',
  'transactions',
  'attestations',
];
const SUMMARY_KEYS = ['index', 'hash', 'txCount', 'timestamp', 'proposer'];
const HEIGHT = 120;

/** One chain for the whole file: 120 blocks, two transfers in block 1 and one in block 2. */
let c: TestChain;

before(async () => {
  c = await openTestChain();
  await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 5n));
  await c.node.submitTx(c.transfer(3, DEV_KEYS[4].address, 6n));
  await c.produce();
  await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 7n));
  await c.produce(HEIGHT - 1);
});
after(async () => {
  await c?.destroy();
});

/** Checks a full block's shape and types. */
function assertBlock(b: any): void {
  assertKeys(b, BLOCK_KEYS, 'block');
  assert.equal(typeof b.index, 'number');
  assert.equal(typeof b.timestamp, 'number');
  assert.match(b.hash, literal(HASH));
  assert.match(b.previousHash, literal(HASH));
  assert.match(b.txRoot, literal(HASH));
  assert.match(b.stateRoot, literal(HASH));
  assert.match(b.proposer, literal(ADDRESS));
  assert.match(b.tokensBurned, /^(0|[1-9][0-9]*)$/);
  assert.match(b.tokensConsumed, /^(0|[1-9][0-9]*)$/);
  assert.ok(Array.isArray(b.transactions));
  assert.ok(Array.isArray(b.attestations));
}

test('GET /api/chain/genesis is block 0: previousHash of 64 zeros, proposer ox + 40 zeros, the genesis timestamp, nothing inside', async () => {
  const res = await get(c, '/api/chain/genesis');
  assert.equal(res.status, 200);
  assertBlock(res.body);
  assert.equal(res.body.index, 0);
  assert.equal(res.body.previousHash, '0'.repeat(64));
  assert.equal(res.body.proposer, `ox${'0'.repeat(40)}`);
  assert.equal(res.body.timestamp, c.genesis.timestamp);
  assert.equal(res.body.txRoot, '0'.repeat(64));
  assert.deepEqual(res.body.transactions, []);
  assert.deepEqual(res.body.attestations, []);
  assert.deepEqual((await get(c, '/api/chain/block/0')).body, res.body);
});

test('GET /api/chain/block/:index serves the full block as stored, with its attestation', async () => {
  const res = await get(c, '/api/chain/block/1');
  assert.equal(res.status, 200);
  assertBlock(res.body);
  assert.deepEqual(res.body, JSON.parse(JSON.stringify(await c.queries.block(1))));
  assert.equal(res.body.index, 1);
  assert.equal(res.body.previousHash, (await get(c, '/api/chain/genesis')).body.hash);
  assert.equal(res.body.proposer, DEV_KEYS[0].address);
  assert.equal(res.body.transactions.length, 2);
  assert.equal(res.body.attestations.length, 1);
  assertKeys(res.body.attestations[0], ['validatorAddress', 'signature', 'publicKey'], 'attestation');
  assert.equal(res.body.attestations[0].validatorAddress, DEV_KEYS[0].address);
  const head = await get(c, `/api/chain/block/${HEIGHT}`);
  assert.equal(head.status, 200);
  assert.equal(head.body.hash, c.node.head().hash);
});

test('GET /api/chain/block/:index is 404 above the head or below 0, and 400 for what is not an integer', async () => {
  assertError(await get(c, `/api/chain/block/${HEIGHT + 1}`), 404, 'NOT_FOUND');
  assertError(await get(c, '/api/chain/block/999999999'), 404, 'NOT_FOUND');
  assertError(await get(c, '/api/chain/block/99999999999999999999'), 404, 'NOT_FOUND');
  assertError(await get(c, '/api/chain/block/-1'), 404, 'NOT_FOUND');
  assertError(await get(c, '/api/chain/block/-99999999999999999999'), 404, 'NOT_FOUND');
  for (const bad of ['abc', '1e99', '1.5', '0x10', '1a', '%20', 'NaN', 'Infinity', '01', '+1']) {
    assertError(await get(c, `/api/chain/block/${bad}`), 400, 'INVALID_PARAMS');
  }
  const long = await get(c, `/api/chain/block/${'a'.repeat(10_000)}`);
  assertError(long, 400, 'INVALID_PARAMS');
  assert.ok(long.body.error.length < 300, 'the error message does not echo a 10 kB parameter');
  const longDigits = await get(c, `/api/chain/block/${'9'.repeat(10_000)}`);
  assertError(longDigits, 404, 'NOT_FOUND');
  assert.ok(longDigits.body.error.length < 300);
});

test('GET /api/chain/block/hash/:hash finds a block by hash in any case; unknown is 404, not hex is 400', async () => {
  const b = c.node.head();
  const res = await get(c, `/api/chain/block/hash/${b.hash}`);
  assert.equal(res.status, 200);
  assertBlock(res.body);
  assert.equal(res.body.index, HEIGHT);
  assert.equal((await get(c, `/api/chain/block/hash/${b.hash.toUpperCase()}`)).body.index, HEIGHT);
  const genesis = (await get(c, '/api/chain/genesis')).body;
  assert.equal((await get(c, `/api/chain/block/hash/${genesis.hash}`)).body.index, 0);
  assertError(await get(c, `/api/chain/block/hash/${'0'.repeat(64)}`), 404, 'NOT_FOUND');
  assertError(await get(c, `/api/chain/block/hash/${'ab'.repeat(32)}`), 404, 'NOT_FOUND');
  for (const bad of ['zz'.repeat(32), b.hash.slice(1), `${b.hash}a`, '1', 'x'.repeat(10_000)]) {
    assertError(await get(c, `/api/chain/block/hash/${bad}`), 400, 'INVALID_PARAMS');
  }
});

test('GET /api/chain/block/latest answers the head block, the same as by its height and by its hash', async () => {
  const res = await get(c, '/api/chain/block/latest');
  assert.equal(res.status, 200);
  assertBlock(res.body);
  const head = c.node.head();
  assert.equal(res.body.index, head.index);
  assert.equal(res.body.hash, head.hash);
  assert.deepEqual((await get(c, `/api/chain/block/${head.index}`)).body, res.body);
  assert.deepEqual((await get(c, `/api/chain/block/hash/${head.hash}`)).body, res.body);
  assertError(await get(c, '/api/chain/block/hash/latest'), 400, 'INVALID_PARAMS');
});

test('GET /api/chain/blocks answers the 30 newest summaries, newest first, with total', async () => {
  const res = await get(c, '/api/chain/blocks');
  assert.equal(res.status, 200);
  assertKeys(res.body, ['blocks', 'total']);
  assert.equal(res.body.total, HEIGHT + 1);
  assert.equal(res.body.blocks.length, 30);
  assert.deepEqual(
    res.body.blocks.map((b: any) => b.index),
    Array.from({ length: 30 }, (_, i) => HEIGHT - i),
  );
  for (const s of res.body.blocks) assertKeys(s, SUMMARY_KEYS, 'summary');
  const b1 = (await c.queries.block(1))!;
  const page = await get(c, `/api/chain/blocks?offset=${HEIGHT - 1}&limit=2`);
  assert.deepEqual(page.body.blocks, [
    { index: 1, hash: b1.hash, txCount: 2, timestamp: b1.timestamp, proposer: DEV_KEYS[0].address },
    { index: 0, hash: (await c.queries.block(0))!.hash, txCount: 0, timestamp: c.genesis.timestamp, proposer: `ox${'0'.repeat(40)}` },
  ]);
  assert.equal(page.body.total, HEIGHT + 1);
});

test('GET /api/chain/blocks clamps limit to 100 and pages with offset', async () => {
  const clamped = await get(c, '/api/chain/blocks?limit=1000');
  assert.equal(clamped.status, 200);
  assert.equal(clamped.body.blocks.length, 100);
  assert.equal(clamped.body.blocks[0].index, HEIGHT);
  assert.equal(clamped.body.blocks[99].index, HEIGHT - 99);
  const exact = await get(c, '/api/chain/blocks?limit=100');
  assert.deepEqual(exact.body, clamped.body);
  const off = await get(c, '/api/chain/blocks?limit=5&offset=10');
  assert.deepEqual(
    off.body.blocks.map((b: any) => b.index),
    [HEIGHT - 10, HEIGHT - 11, HEIGHT - 12, HEIGHT - 13, HEIGHT - 14],
  );
  const tail = await get(c, `/api/chain/blocks?limit=30&offset=${HEIGHT - 2}`);
  assert.deepEqual(
    tail.body.blocks.map((b: any) => b.index),
    [2, 1, 0],
  );
  const past = await get(c, `/api/chain/blocks?offset=${HEIGHT + 1}`);
  assert.deepEqual(past.body, { blocks: [], total: HEIGHT + 1 });
  const zero = await get(c, '/api/chain/blocks?limit=0');
  assert.deepEqual(zero.body, { blocks: [], total: HEIGHT + 1 });
});

test('GET /api/chain/blocks refuses a negative, fractional or non-numeric limit or offset with 400', async () => {
  for (const q of [
    'limit=-1',
    'limit=1.5',
    'limit=abc',
    'limit=1e3',
    'limit=0x10',
    'offset=-1',
    'offset=2.5',
    'offset=abc',
    `limit=${'9'.repeat(10_000)}`,
  ]) {
    assertError(await get(c, `/api/chain/blocks?${q}`), 400, 'INVALID_PARAMS');
  }
});

test('GET /api/chain/blocks?from=&to= answers full blocks of an inclusive range of at most 100', async () => {
  const res = await get(c, '/api/chain/blocks?from=1&to=3');
  assert.equal(res.status, 200);
  assertKeys(res.body, ['from', 'to', 'count', 'blocks']);
  assert.equal(res.body.from, 1);
  assert.equal(res.body.to, 3);
  assert.equal(res.body.count, 3);
  assert.deepEqual(
    res.body.blocks.map((b: any) => b.index),
    [1, 2, 3],
  );
  for (const b of res.body.blocks) assertBlock(b);
  assert.equal(res.body.blocks[1].transactions.length, 1);
  const hundred = await get(c, '/api/chain/blocks?from=0&to=99');
  assert.equal(hundred.body.count, 100);
  assertError(await get(c, '/api/chain/blocks?from=0&to=100'), 400, 'INVALID_PARAMS');
  const fromOnly = await get(c, '/api/chain/blocks?from=50');
  assert.deepEqual([fromOnly.body.from, fromOnly.body.to, fromOnly.body.count], [50, HEIGHT, HEIGHT - 49]);
  const toOnly = await get(c, '/api/chain/blocks?to=110');
  assert.deepEqual([toOnly.body.from, toOnly.body.to, toOnly.body.count], [11, 110, 100]);
  const single = await get(c, '/api/chain/blocks?from=7&to=7');
  assert.equal(single.body.count, 1);
  assert.equal(single.body.blocks[0].index, 7);
  // A range reaching past the head answers what exists.
  const over = await get(c, `/api/chain/blocks?from=${HEIGHT - 1}&to=${HEIGHT + 50}`);
  assert.deepEqual(
    over.body.blocks.map((b: any) => b.index),
    [HEIGHT - 1, HEIGHT],
  );
  // Starting past the head is an empty range, not an error.
  const beyond = await get(c, `/api/chain/blocks?from=${HEIGHT + 5}`);
  assert.deepEqual([beyond.status, beyond.body.count, beyond.body.blocks], [200, 0, []]);
  for (const q of ['from=5&to=4', 'from=-1&to=3', 'from=abc&to=3', 'from=1&to=1.5', 'from=1e2&to=200']) {
    assertError(await get(c, `/api/chain/blocks?${q}`), 400, 'INVALID_PARAMS');
  }
});

test('GET /api/chain/blocks-full answers an inclusive range of at most 500 blocks', async () => {
  const res = await get(c, '/api/chain/blocks-full?from=0&to=499');
  assert.equal(res.status, 200);
  assertKeys(res.body, ['from', 'to', 'count', 'blocks']);
  assert.equal(res.body.count, HEIGHT + 1);
  assert.deepEqual(
    res.body.blocks.map((b: any) => b.index),
    Array.from({ length: HEIGHT + 1 }, (_, i) => i),
  );
  for (const b of res.body.blocks) assertBlock(b);
  assert.deepEqual(res.body.blocks[1], JSON.parse(JSON.stringify(await c.queries.block(1))));
  const two = await get(c, '/api/chain/blocks-full?from=2&to=3');
  assert.deepEqual([two.body.from, two.body.to, two.body.count], [2, 3, 2]);
  assertError(await get(c, '/api/chain/blocks-full?from=0&to=500'), 400, 'INVALID_PARAMS', /500/);
  assertError(await get(c, '/api/chain/blocks-full?from=1000&to=1500'), 400, 'INVALID_PARAMS');
  for (const q of ['', 'from=10&to=9', 'from=a&to=3', 'from=0&to=-1', 'from=0.5&to=3']) {
    assertError(await get(c, `/api/chain/blocks-full?${q}`), 400, 'INVALID_PARAMS');
  }
});

test('a block range is streamed block by block and capped in bytes: `next` continues it, and the pieces make the whole range', async () => {
  const whole = (await get(c, '/api/chain/blocks-full?from=0&to=499')).body;
  const sizes = whole.blocks.map((b: unknown) => JSON.stringify(b).length);
  // A cap of about ten blocks' JSON.
  const cap = sizes.slice(0, 10).reduce((a: number, b: number) => a + b, 0);
  const app = createApp(testApiDeps(c.node), { maxRangeBytes: cap });
  for (const path of ['/api/chain/blocks-full?from=0&to=499', '/api/chain/blocks?from=0&to=99']) {
    const seen: number[] = [];
    let from = 0;
    let answers = 0;
    for (;;) {
      const res = await app.request(path.replace('from=0', `from=${from}`));
      assert.equal(res.status, 200);
      // Streamed: the body arrives in several pieces (the opening, each block, the close).
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const pieces: Uint8Array[] = [];
      for (let r = await reader.read(); !r.done; r = await reader.read()) pieces.push(r.value);
      const text = Buffer.concat(pieces).toString();
      const body = JSON.parse(text);
      assert.ok(pieces.length >= Math.min(3, body.count + 2), `${pieces.length} pieces`);
      assert.ok(text.length <= cap + 200 + Math.max(...sizes), `${text.length} bytes answered under a cap of ${cap}`);
      assert.ok(body.count >= 1);
      seen.push(...body.blocks.map((b: { index: number }) => b.index));
      answers++;
      if (body.next === undefined) break;
      assert.equal(body.next, from + body.count, 'next follows the last block answered');
      from = body.next;
    }
    const last = path.includes('blocks-full') ? HEIGHT : 99;
    assert.deepEqual(
      seen,
      Array.from({ length: last + 1 }, (_, i) => i),
      path,
    );
    assert.ok(answers >= (last + 1) / 12, `${answers} answers`);
  }
  // One block larger than the cap is still answered, alone.
  const tiny = createApp(testApiDeps(c.node), { maxRangeBytes: 1 });
  const one = (await (await tiny.request('/api/chain/blocks-full?from=1&to=3')).json()) as {
    count: number;
    next: number;
    blocks: { index: number }[];
  };
  assert.deepEqual([one.count, one.next, one.blocks[0].index], [1, 2, 1]);
});
