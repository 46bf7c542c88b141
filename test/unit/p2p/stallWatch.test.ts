/**
 * The node's own stalls (p2p/stallWatch.ts): a gap between ticks beyond the stall bound is
 * forgiven for as long again, at least the minimum grace and at most the maximum; a gap still
 * open (the resumed loop reading I/O before its first late tick) counts too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StallWatch } from '../../../p2p/stallWatch.ts';

const opts = { tickMs: 250, stallMs: 1_500, minGraceMs: 5_000, maxGraceMs: 60_000 };

test('regular ticks forgive nothing', () => {
  const w = new StallWatch(opts, () => 0);
  for (let t = 250; t <= 10_000; t += 250) {
    w.tick(t);
    assert.equal(w.forgiving(t + 100), false, `at ${t}`);
  }
  assert.equal(w.seen.stalls, 0);
});

test('a pause of 8 s is forgiven for 8 s after the loop resumes, and heard once', () => {
  const heard: number[] = [];
  const w = new StallWatch(opts, () => 0);
  w.onStall = (ms) => heard.push(ms);
  w.tick(250);
  // Resumed at 8,250: the I/O it reads before its first late tick is already forgiven.
  assert.equal(w.forgiving(8_250), true, 'a gap still open');
  w.tick(8_260);
  assert.deepEqual(heard, [8_010]);
  assert.equal(w.forgiving(8_300), true);
  assert.equal(w.forgiving(16_200), true);
  for (let t = 8_510; t <= 16_260; t += 250) w.tick(t);
  assert.equal(w.forgiving(16_300), false, 'grace over: copies count again');
  assert.deepEqual(w.seen, { stalls: 1, longestMs: 8_010 });
});

test('a short stall gets the minimum grace, a very long one the maximum', () => {
  const w = new StallWatch(opts, () => 0);
  w.tick(2_000);
  assert.equal(w.forgiving(6_900), true);
  for (let t = 2_250; t <= 7_100; t += 250) w.tick(t);
  assert.equal(w.forgiving(7_100), false);
  w.tick(600_000);
  assert.equal(w.forgiving(600_000 + 59_000), true);
  for (let t = 600_250; t <= 660_250; t += 250) w.tick(t);
  assert.equal(w.forgiving(660_250), false);
});

test('started, it ticks on its own and stops without holding the process', async () => {
  const w = new StallWatch({ tickMs: 5, stallMs: 10_000 });
  w.start();
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(w.forgiving(), false);
  w.stop();
});
