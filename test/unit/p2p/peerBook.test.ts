/** The peer book stays bounded and dials little, whatever peers advertise. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PeerBook } from '../../../p2p/peerBook.ts';

const addr = (i: number) => `/ip4/10.0.${(i >> 8) & 255}.${i & 255}/tcp/7778/p2p/12D3KooWfake${i}`;

test('1,000 advertised fake addresses: the book holds at most its cap and each round dials at most a few', () => {
  const book = new PeerBook({ maxPeers: 64, maxDialsPerRound: 8 });
  const operator = addr(100_000);
  book.add(operator, true);
  let dials = 0;
  let now = 0;
  for (let round = 0; round < 50; round++) {
    for (let i = round * 20; i < round * 20 + 20; i++) book.add(addr(i), false, now);
    const due = book.due(now, new Set());
    assert.ok(due.length <= 8, `round ${round} dials ${due.length}`);
    dials += due.length;
    for (const a of due) book.dialed(a, false, now);
    assert.ok(book.size <= 64, `book holds ${book.size}`);
    now += 2000;
  }
  assert.ok(book.has(operator), 'the operator-given peer is kept');
  assert.ok(dials <= 50 * 8);
});

test('failures back off exponentially; a learned address goes after a run of failures, a pinned one never', () => {
  const book = new PeerBook({ backoffMs: 1000, maxBackoffMs: 60_000, maxPinnedBackoffMs: 4000, maxFailures: 3 });
  const learned = addr(1);
  const pinned = addr(2);
  book.add(learned, false, 0);
  book.add(pinned, true, 0);
  book.dialed(learned, false, 0);
  assert.deepEqual(book.due(999, new Set()), [pinned], 'the learned one waits its backoff');
  assert.deepEqual(book.due(1000, new Set()).sort(), [learned, pinned].sort());
  book.dialed(learned, false, 1000);
  assert.deepEqual(book.due(2999, new Set()), [pinned]);
  book.dialed(learned, false, 3000);
  assert.ok(!book.has(learned), 'dropped after 3 failures');
  for (let i = 0; i < 10; i++) book.dialed(pinned, false, 0);
  assert.ok(book.has(pinned));
  assert.deepEqual(book.due(4000, new Set()), [pinned], 'a pinned address waits at most maxPinnedBackoffMs');
  assert.deepEqual(book.due(4000, new Set(['12D3KooWfake2'])), [], 'connected peers are not dialled');
});

test('property: any sequence of adds and outcomes keeps the book within its cap and every round within its dial bound', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat(500), fc.boolean(), fc.boolean()), { maxLength: 400 }), (ops) => {
      const book = new PeerBook({ maxPeers: 32, maxDialsPerRound: 4 });
      let now = 0;
      for (const [i, pin, ok] of ops) {
        book.add(addr(i), pin && i % 7 === 0, now);
        for (const a of book.due(now, new Set())) book.dialed(a, ok, now);
        if (book.size > 32 || book.due(now, new Set()).length > 4) return false;
        now += 500;
      }
      return true;
    }),
    { numRuns: 200 },
  );
});
