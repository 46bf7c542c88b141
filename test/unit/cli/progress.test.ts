import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amount, rateText, significant, burstProgress, duration, progress, type ProgressReport } from '../../../cli/progress.ts';

/** A write stream that records what it is given (a terminal when `tty`). */
function fakeStream(tty: boolean) {
  const out: string[] = [];
  const s = {
    isTTY: tty,
    columns: 120,
    write: (x: string) => (out.push(x), true),
    cursorTo: () => true,
    clearLine: () => true,
    moveCursor: () => true,
    on: () => s,
    removeListener: () => s,
  };
  return { stream: s as unknown as NodeJS.WriteStream, out };
}

test('without a terminal: a line every 10% with the rate and the time left, and one at the end', () => {
  const { stream, out } = fakeStream(false);
  let now = 0;
  const p = progress('replay', 1000, { unit: 'blocks', stream, now: () => now });
  for (let v = 50; v <= 1000; v += 50) {
    now += 100; // 500 blocks/s
    p.update(v);
  }
  p.stop();
  assert.equal(out.length, 10, out.join(''));
  // 0.2 s of samples is no rate yet: the first line says so instead of a burst figure.
  assert.equal(out[0], 'replay: 10% (100/1000 blocks, ? blocks/s, eta ?)\n');
  assert.equal(out[4], 'replay: 50% (500/1000 blocks, 500 blocks/s, eta 1.0 s)\n');
  assert.equal(out[9], 'replay: 100% (1000/1000 blocks, 500 blocks/s, eta 0.0 s)\n');
});

test('without a terminal: slow work still reports every 5 s, and bytes read as KiB/MiB', () => {
  const { stream, out } = fakeStream(false);
  let now = 0;
  const p = progress('audit', 100 * 1024 * 1024, { unit: 'bytes', stream, now: () => now });
  now = 6000;
  p.update(1024 * 1024);
  assert.deepEqual(out, ['audit: 1% (1.0 MiB/100.0 MiB, 170.7 KiB/s, eta 9m54s)\n']);
  p.stop();
  assert.equal(out.length, 2, 'stop reports where it ended');
});

test('reports can go to a sink (a logger) instead of the stream', () => {
  const { stream, out } = fakeStream(false);
  const got: ProgressReport[] = [];
  const p = progress('sync', 10, { unit: 'blocks', stream, report: (_text, r) => got.push(r), now: () => 0 });
  p.update(10);
  assert.equal(out.length, 0);
  assert.deepEqual(got[0], { task: 'sync', done: 10, total: 10, unit: 'blocks', percent: 100, rate: null, etaSeconds: 0 });
});

test('on a terminal: a bar with the count, the rate and the time left', () => {
  const { stream, out } = fakeStream(true);
  let now = 0;
  const p = progress('replay', 100, { unit: 'blocks', stream, now: () => now });
  now = 1000;
  p.update(40);
  p.stop();
  const text = out.join('');
  assert.match(text, /replay \[.*\] 40% \| 40\/100 blocks \| 40 blocks\/s \| eta 1\.5 s/);
});

test('a burst reporter appears only while the work is behind, and ends when it catches up', () => {
  const { stream, out } = fakeStream(false);
  const tick = burstProgress('catch-up', { unit: 'blocks', stream, now: () => 0 });
  tick(5, 5);
  assert.equal(out.length, 0, 'nothing to catch up: silent');
  tick(3, 10);
  tick(10, 10);
  assert.equal(out.length, 2);
  assert.match(out[1], /^catch-up: 100% \(10\/10 blocks/);
});

test('rates read to 3 significant digits, bytes as whole B or KiB/MiB', () => {
  assert.deepEqual(
    [significant(544.7106313156919), significant(2_557_846), significant(1500), significant(0.045678), significant(12), significant(999.9)],
    ['545', '2.56M', '1.5k', '0.0457', '12', '1k'],
  );
  assert.deepEqual(
    [rateText(544.7106313156919, 'bytes'), rateText(2_557_846, 'blocks'), rateText(null, 'blocks')],
    ['545 B/s', '2.56M blocks/s', '? blocks/s'],
  );
  const { stream, out } = fakeStream(false);
  let now = 0;
  const p = progress('export', 3_000_000, { unit: 'blocks', stream, now: () => now });
  // A first burst (a million blocks in 0.4 ms) is not reported as 2.5G blocks/s.
  now = 0.4;
  p.update(1_000_000);
  now = 6000;
  p.update(2_000_000);
  assert.match(out[0], /\? blocks\/s, eta \?\)/);
  assert.match(out[1], /, 167k blocks\/s, eta 6\.0 s\)/);
});

test('amounts and durations for people', () => {
  assert.deepEqual(
    [amount(12, 'blocks'), amount(512, 'bytes'), amount(1536, 'bytes'), amount(5 * 1024 ** 3, 'bytes')],
    ['12', '512 B', '1.5 KiB', '5.0 GiB'],
  );
  assert.deepEqual(
    [duration(null), duration(0.25), duration(42.4), duration(185), duration(7380)],
    ['?', '0.3 s', '42 s', '3m05s', '2h03m'],
  );
});
