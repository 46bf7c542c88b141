/**
 * The home page's throttle (api/explorer/throttle.ts), on a clock and timers of the test's own:
 * many schedules make one run, none closer than the interval to the last, none while the page
 * is hidden; what was skipped while hidden runs once the page is shown.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Throttle, type ThrottleHost } from '../../../../api/explorer/throttle.ts';

function fakeHost() {
  let now = 1_000_000;
  let hidden = false;
  const timers: { at: number; fn: () => void }[] = [];
  const host: ThrottleHost = {
    now: () => now,
    hidden: () => hidden,
    setTimeout: (fn, ms) => timers.push({ at: now + ms, fn }),
  };
  return {
    host,
    hide: (h: boolean) => {
      hidden = h;
    },
    /** Moves the clock by `ms`, firing the timers due on the way. */
    advance(ms: number) {
      now += ms;
      for (const t of timers.splice(0).sort((a, b) => a.at - b.at))
        if (t.at <= now) t.fn();
        else timers.push(t);
    },
    pending: () => timers.length,
  };
}

test('bursts of schedules run once, then at most every interval', () => {
  const h = fakeHost();
  const runs: number[] = [];
  const t = new Throttle(2000, async () => void runs.push(h.host.now()), h.host);
  for (let i = 0; i < 5; i++) t.schedule();
  assert.equal(h.pending(), 1, 'one timer for the burst');
  h.advance(0);
  assert.deepEqual(runs, [1_000_000], 'the first runs at once (nothing ran before)');
  t.schedule();
  t.schedule();
  h.advance(500);
  assert.equal(runs.length, 1, 'not within the interval');
  h.advance(1500);
  assert.deepEqual(runs, [1_000_000, 1_002_000]);
});

test('a hidden page runs nothing; shown again, it runs what it owes once', () => {
  const h = fakeHost();
  let runs = 0;
  const t = new Throttle(1000, async () => void runs++, h.host);
  h.hide(true);
  t.schedule();
  t.schedule();
  h.advance(5000);
  assert.equal(runs, 0);
  assert.equal(h.pending(), 0);
  h.hide(false);
  t.shown();
  h.advance(0);
  assert.equal(runs, 1);
  t.shown();
  h.advance(5000);
  assert.equal(runs, 1, 'nothing owed any more');
});

test('a failing run is swallowed and does not stop later ones', () => {
  const h = fakeHost();
  let runs = 0;
  const t = new Throttle(
    100,
    async () => {
      runs++;
      throw new Error('node down');
    },
    h.host,
  );
  t.schedule();
  h.advance(0);
  t.schedule();
  h.advance(100);
  assert.equal(runs, 2);
});
