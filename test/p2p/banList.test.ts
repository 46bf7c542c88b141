/** Strikes cool a peer down and ban it on repeat; old strikes are forgotten. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BAN_MS, BanList } from '../../p2p/banList.ts';
import { PeerBook } from '../../p2p/peerBook.ts';

const t = suite('ban list strikes');

t('each strike cools a peer down; the third within the ban time bans it', () => {
  const b = new BanList();
  assert.not.ok(b.strike('p', 3, 1000, 0));
  assert.ok(b.cooling('p', 999));
  assert.not.ok(b.cooling('p', 1000));
  assert.not.ok(b.strike('p', 3, 1000, 2000));
  assert.not.ok(b.has('p', 2000));
  assert.ok(b.strike('p', 3, 1000, 4000));
  assert.ok(b.has('p', 4000));
  assert.is(b.total, 1);
});

t('strikes older than the ban time are forgotten', () => {
  const b = new BanList();
  b.strike('p', 3, 0, 0);
  b.strike('p', 3, 0, 1);
  assert.not.ok(b.strike('p', 3, 0, BAN_MS + 2), 'the first two are too old to count');
  assert.not.ok(b.has('p', BAN_MS + 2));
});

t('pinned addresses and proven peers are known; peers merely named are not, whoever named them', () => {
  const book = new PeerBook({ maxProven: 2 });
  book.add('/ip4/127.0.0.1/tcp/1/p2p/A', true);
  book.add('/ip4/127.0.0.1/tcp/2/p2p/B');
  assert.ok(book.knows('A'));
  assert.not.ok(book.knows('B'), 'named by some peer');
  book.prove('B');
  assert.ok(book.knows('B'), 'served blocks this node imported');
  book.prove('C');
  book.prove('D');
  assert.not.ok(book.knows('B'), 'the oldest proof goes when the proofs are full');
  assert.ok(book.knows('C') && book.knows('D'));
});

t.run();
