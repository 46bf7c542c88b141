/** Strikes cool a peer down and ban it on repeat; old strikes are forgotten. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BAN_MS, BanList } from '../../../p2p/banList.ts';
import { PeerBook } from '../../../p2p/peerBook.ts';

test('each strike cools a peer down; the third within the ban time bans it', () => {
  const b = new BanList();
  assert.ok(!b.strike('p', 3, 1000, 0));
  assert.ok(b.cooling('p', 999));
  assert.ok(!b.cooling('p', 1000));
  assert.ok(!b.strike('p', 3, 1000, 2000));
  assert.ok(!b.has('p', 2000));
  assert.ok(b.strike('p', 3, 1000, 4000));
  assert.ok(b.has('p', 4000));
  assert.equal(b.total, 1);
});

test('strikes older than the ban time are forgotten', () => {
  const b = new BanList();
  b.strike('p', 3, 0, 0);
  b.strike('p', 3, 0, 1);
  assert.ok(!b.strike('p', 3, 0, BAN_MS + 2), 'the first two are too old to count');
  assert.ok(!b.has('p', BAN_MS + 2));
});

test('pinned addresses and proven peers are known; peers merely named are not, whoever named them', () => {
  const book = new PeerBook({ maxProven: 2 });
  book.add('/ip4/127.0.0.1/tcp/1/p2p/A', true);
  book.add('/ip4/127.0.0.1/tcp/2/p2p/B');
  assert.ok(book.knows('A'));
  assert.ok(!book.knows('B'), 'named by some peer');
  book.prove('B');
  assert.ok(book.knows('B'), 'served blocks this node imported');
  book.prove('C');
  book.prove('D');
  assert.ok(!book.knows('B'), 'the oldest proof goes when the proofs are full');
  assert.ok(book.knows('C') && book.knows('D'));
});
