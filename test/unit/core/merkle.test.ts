import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { txRootOf } from '../../../core/block.ts';
import { merkleRoot, sha256Hex, ZERO_HASH } from '../../../core/hash.ts';

const h = (s: string) => createHash('sha256').update(s).digest('hex');
/** SHA-256 of the raw bytes of two hex hashes, written out independently of core/hash.ts. */
const pair = (a: string, b: string) =>
  createHash('sha256')
    .update(Buffer.from(a + b, 'hex'))
    .digest('hex');
const [A, B, C, D, E] = ['a', 'b', 'c', 'd', 'e'].map(h);

test('an empty list has the root of 64 zeros', () => {
  assert.equal(merkleRoot([]), '0'.repeat(64));
  assert.equal(ZERO_HASH, '0'.repeat(64));
});

test('a single hash is its own root', () => {
  assert.equal(merkleRoot([A]), A);
});

test('two hashes root at SHA-256 of their concatenated bytes (not of the hex text)', () => {
  assert.equal(merkleRoot([A, B]), pair(A, B));
  assert.notEqual(merkleRoot([A, B]), sha256Hex(A + B));
});

test('an odd last node pairs with itself: three leaves', () => {
  assert.equal(merkleRoot([A, B, C]), pair(pair(A, B), pair(C, C)));
});

test('an odd count at an inner level duplicates its last node too: five leaves', () => {
  const l1 = [pair(A, B), pair(C, D), pair(E, E)];
  const l2 = [pair(l1[0], l1[1]), pair(l1[2], l1[2])];
  assert.equal(merkleRoot([A, B, C, D, E]), pair(l2[0], l2[1]));
});

test('four leaves make a balanced tree', () => {
  assert.equal(merkleRoot([A, B, C, D]), pair(pair(A, B), pair(C, D)));
});

test('order matters', () => {
  assert.notEqual(merkleRoot([A, B]), merkleRoot([B, A]));
});

test('a fixed vector of the leaves sha256("a".."c") pins the tree for other implementations', () => {
  assert.equal(A, 'ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  assert.equal(merkleRoot([A, B, C]), 'd31a37ef6ac14a2db1470c4316beb5592e6afd4465022339adafda76a18ffabe');
});

test("txRoot is the merkle root of the transactions' hashes in block order", () => {
  assert.equal(txRootOf([]), ZERO_HASH);
  assert.equal(txRootOf([{ hash: A }, { hash: B }, { hash: C }]), merkleRoot([A, B, C]));
});
