import { test } from 'node:test';

import assert from 'node:assert/strict';
import { PeerHeads } from '../../../p2p/peerHeads.ts';

test('the best head is the highest any remembered peer showed, and null before any did', () => {
  const heads = new PeerHeads();
  assert.equal(heads.best(), null);
  heads.noteClaim('a', 5);
  heads.noteClaim('b', 12);
  heads.noteClaim('a', 7);
  assert.equal(heads.best(), 12);
});

test('a peer’s head only moves up, and forgetting it (disconnect, strike, ban) drops its claim', () => {
  const heads = new PeerHeads();
  heads.noteClaim('a', 9);
  heads.noteClaim('a', 3);
  heads.noteClaim('b', 4);
  assert.equal(heads.best(), 9);
  heads.forget('a');
  assert.equal(heads.best(), 4);
  heads.forget('b');
  assert.equal(heads.best(), null);
});

test('heights that are not block heights are ignored, and the map stays within its bound', () => {
  const heads = new PeerHeads(2);
  for (const h of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) heads.noteClaim('x', h);
  assert.equal(heads.best(), null);
  heads.noteClaim('a', 1);
  heads.noteClaim('b', 2);
  heads.noteClaim('c', 100);
  assert.equal(heads.best(), 2, 'a third peer is not remembered past the bound');
  for (const h of [-1, 1.5, Number.NaN, 2 ** 60]) heads.noteSealed('x', h, 0);
  heads.noteSealed('a', 3, 0);
  heads.noteSealed('b', 4, 0);
  heads.noteSealed('c', 100, 0);
  assert.equal(heads.best(0), 4, 'a third sealed head is not remembered past the bound');
});

test('a sealed head outlives a sync that ends short (only the claim goes) until its peer disconnects', () => {
  const heads = new PeerHeads(16, 1000);
  heads.noteClaim('p', 50);
  heads.noteSealed('p', 40, 0);
  assert.equal(heads.best(10), 50);
  heads.forgetClaim('p');
  assert.equal(heads.best(10), 40, 'the sealed block still shows the network at 40');
  heads.forgetClaim('p');
  assert.equal(heads.best(20), 40, 'every later failed sync leaves it too');
  heads.forget('p');
  assert.equal(heads.best(20), null, 'a disconnected or banned peer shows nothing');
});

test('a sealed head ages out a bounded time after its peer last showed it; showing it again renews it', () => {
  const heads = new PeerHeads(16, 1000);
  heads.noteSealed('p', 40, 0);
  assert.equal(heads.best(999), 40);
  heads.noteSealed('p', 40, 900);
  assert.equal(heads.best(1899), 40, 'renewed at 900');
  assert.equal(heads.best(1900), null, 'aged out 1000 ms after it was last shown');
  heads.noteSealed('q', 7, 2000);
  assert.equal(heads.best(2000), 7, 'an aged-out peer can show a head again');
});

test('a sealed head is superseded by a higher one; a lower one replaces it only once it aged out', () => {
  const heads = new PeerHeads(16, 1000);
  heads.noteSealed('p', 40, 0);
  heads.noteSealed('p', 45, 100);
  assert.equal(heads.best(100), 45);
  heads.noteSealed('p', 30, 200);
  assert.equal(heads.best(200), 45, 'a lower block does not hide the higher evidence');
  assert.equal(heads.best(1099), 45);
  heads.noteSealed('p', 30, 1100);
  assert.equal(heads.best(1100), 30, 'once 45 aged out, 30 counts');
  heads.noteClaim('q', 35);
  assert.equal(heads.best(1100), 35, 'claims and sealed heads are compared together');
});

test.run();
