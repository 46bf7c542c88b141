import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { PeerHeads } from '../../p2p/peerHeads.ts';

test('the best head is the highest any remembered peer showed, and null before any did', () => {
  const heads = new PeerHeads();
  assert.is(heads.best(), null);
  heads.note('a', 5);
  heads.note('b', 12);
  heads.note('a', 7);
  assert.is(heads.best(), 12);
});

test('a peer’s head only moves up, and forgetting it (disconnect, strike, ban) drops its claim', () => {
  const heads = new PeerHeads();
  heads.note('a', 9);
  heads.note('a', 3);
  heads.note('b', 4);
  assert.is(heads.best(), 9);
  heads.forget('a');
  assert.is(heads.best(), 4);
  heads.forget('b');
  assert.is(heads.best(), null);
});

test('heights that are not block heights are ignored, and the map stays within its bound', () => {
  const heads = new PeerHeads(2);
  for (const h of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60]) heads.note('x', h);
  assert.is(heads.best(), null);
  heads.note('a', 1);
  heads.note('b', 2);
  heads.note('c', 100);
  assert.is(heads.best(), 2, 'a third peer is not remembered past the bound');
});

test.run();
