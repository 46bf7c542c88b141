/**
 * What holds an authority's slot while a peer is, or may be, ahead (p2p/productionHold.ts), on a
 * fake clock: each cause for at most one request deadline, and nothing for more than three while
 * the head stands still.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PeerHeads } from '../../../p2p/peerHeads.ts';
import { ProductionHold } from '../../../p2p/productionHold.ts';

const DEADLINE = 1000;

/** A hold over a head the test moves, with real peer heads whose sealed evidence never ages out. */
function setup() {
  const chain = { head: 10 };
  const heads = new PeerHeads(1024, Number.POSITIVE_INFINITY);
  const hold = new ProductionHold(() => chain.head, heads, DEADLINE);
  return { chain, heads, hold };
}

test('nothing holds a node no peer is ahead of', () => {
  const { heads, hold } = setup();
  assert.equal(hold.behind(0), false);
  heads.noteClaim('a', 10);
  heads.noteSealed('b', 9, 0);
  assert.equal(hold.behind(1), false, 'heads at or below ours hold nothing');
});

test('a head shown above ours holds production until the node reaches it', () => {
  const { chain, heads, hold } = setup();
  heads.noteSealed('a', 12, 0);
  assert.equal(hold.behind(0), true);
  chain.head = 12;
  assert.equal(hold.behind(100), false);
});

test('a connected peer whose first sync has not ended holds production for less than one deadline', () => {
  const { hold } = setup();
  hold.connected('a', 0);
  assert.equal(hold.isFresh('a'), true);
  assert.equal(hold.behind(DEADLINE - 1), true);
  assert.equal(hold.behind(DEADLINE), false);
  assert.equal(hold.isFresh('a'), false, 'an expired peer is dropped');
});

test('a silent new peer holds production no longer than its own bound, shorter than a deadline', () => {
  const chain = { head: 10 };
  const hold = new ProductionHold(() => chain.head, new PeerHeads(1024, Number.POSITIVE_INFINITY), DEADLINE, 200);
  hold.connected('a', 0);
  assert.equal(hold.behind(199), true);
  assert.equal(hold.behind(200), false, 'a peer not heard in two block times holds nothing');
  assert.equal(hold.isFresh('a'), true, 'it is still the next peer to ask until a deadline passes');
  hold.syncBehind(300);
  assert.equal(hold.behind(300 + DEADLINE - 1), true, 'a better chain its status showed still holds for a deadline');
});

test('a peer whose sync ended, or that disconnected, no longer holds production', () => {
  const { hold } = setup();
  hold.connected('a', 0);
  hold.connected('b', 0);
  hold.syncEnded('a');
  assert.equal(hold.isFresh('a'), false);
  assert.equal(hold.behind(1), true, 'b is still fresh');
  hold.disconnected('b');
  assert.equal(hold.behind(2), false);
});

test('a running sync behind a better chain holds production for less than one deadline from its start, and not once it ends', () => {
  const { hold } = setup();
  hold.syncBehind(0);
  assert.equal(hold.behind(DEADLINE - 1), true);
  assert.equal(hold.behind(DEADLINE), false);
  hold.syncBehind(1500);
  assert.equal(hold.behind(1501), true);
  hold.syncEnded('a');
  assert.equal(hold.behind(1502), false);
});

test('nothing holds production for more than three deadlines while the head stands still, and a moving head holds it again', () => {
  const { chain, heads, hold } = setup();
  // A claim that outlived its peer (never forgotten): it would hold production for good.
  heads.noteClaim('liar', 100);
  assert.equal(hold.behind(0), true);
  assert.equal(hold.behind(3 * DEADLINE), true);
  assert.equal(hold.behind(3 * DEADLINE + 1), false);
  chain.head = 11;
  assert.equal(hold.behind(3 * DEADLINE + 2), true, 'the head moved: the claim holds again');
  assert.equal(hold.behind(6 * DEADLINE + 3), false);
});
