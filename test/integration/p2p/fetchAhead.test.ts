import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fetchAhead } from '../../../p2p/fetchAhead.ts';
import { errorMessage } from '../../../core/errors.ts';

/** A fetch over 1..n answering prefixes of `cut` items at most, logging each request. */
function source(cut: number) {
  const asked: [number, number][] = [];
  const fetch = async (lo: number, hi: number) => {
    asked.push([lo, hi]);
    await new Promise((r) => setTimeout(r, 1));
    return Array.from({ length: Math.min(hi - lo + 1, cut) }, (_, i) => lo + i);
  };
  return { asked, fetch };
}

test('the next range is asked for before the first answer is consumed', async () => {
  const s = source(100);
  const it = fetchAhead(1, 30, 10, s.fetch);
  assert.equal((await it.next()).value, 1);
  assert.deepEqual(s.asked, [
    [1, 10],
    [11, 20],
  ]);
  await it.return(undefined);
});

test('every item comes once and in order, whatever prefixes the answers are cut to', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 40 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 12 }),
      async (to, batch, cut) => {
        const s = source(cut);
        const got: number[] = [];
        for await (const x of fetchAhead(1, to, batch, s.fetch)) got.push(x);
        assert.deepEqual(
          got,
          Array.from({ length: to }, (_, i) => i + 1),
        );
        // At most one request ahead: never more than one past what was consumed.
        assert.ok(s.asked.every(([lo, hi]) => lo >= 1 && hi <= to && hi - lo < batch));
      },
    ),
    { numRuns: 60 },
  );
});

test('an empty range asks nothing', async () => {
  const s = source(5);
  for await (const _ of fetchAhead(5, 4, 10, s.fetch)) assert.fail();
  assert.deepEqual(s.asked, []);
});

test('a request failing after the consumer stopped is not an unhandled rejection', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  process.on('unhandledRejection', onUnhandled);
  try {
    let calls = 0;
    const fetch = async (lo: number, hi: number) => {
      calls++;
      if (calls === 2) {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('peer hung up');
      }
      return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
    };
    for await (const x of fetchAhead(1, 20, 10, fetch)) if (x === 3) break;
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(calls, 2);
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});

test('a failing request fails the consumer when it reaches it', async () => {
  const fetch = async (lo: number, hi: number) => {
    if (lo > 1) throw new Error('peer hung up');
    return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  };
  const got: number[] = [];
  try {
    for await (const x of fetchAhead(1, 20, 10, fetch)) got.push(x);
    assert.fail();
  } catch (e) {
    assert.equal(errorMessage(e), 'peer hung up');
  }
  assert.equal(got.length, 10);
});
