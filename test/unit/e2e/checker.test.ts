/**
 * The e2e checker (e2e/check/) on small synthetic histories: a clean run passes every invariant,
 * and a history that breaks one invariant fails exactly that one, with the evidence named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRecords } from '../../../e2e/check/checkRun.ts';
import { slope } from '../../../e2e/check/resources.ts';
import type { HistoryRecord } from '../../../e2e/history.ts';
import { heapStats } from '../../../e2e/sampler.ts';

const NODES = ['a0', 'a1', 'a2', 'f0'];
/** Blocks in the run: one a second, beyond the default finality depth of 128. */
const N = 200;
const S = 1000;

/** A clean run: 200 blocks on every node, a kill of f0 at 50-55 s, three transactions, streams, webhooks. */
function cleanRun(): HistoryRecord[] {
  const r: HistoryRecord[] = [];
  const add = (t: number, type: string, f: Record<string, unknown> = {}) => r.push({ t, type, ...f });
  add(0, 'cluster', { nodes: NODES.map((name, i) => ({ name, authority: name.startsWith('a'), http: 8000 + i })), blockTimeMs: 1000 });
  add(0, 'run', { phase: 'started' });
  add(1, 'run', { phase: 'perturb' });
  for (const n of NODES) add(2, 'webhook_subscribe', { node: n, status: 200, id: `sub-${n}`, height: 0 });
  add(50 * S, 'perturb', { id: 1, phase: 'start', kind: 'kill', nodes: ['f0'], isolated: ['f0'] });
  add(50 * S + 5, 'exit', { node: 'f0', code: null, signal: 'SIGKILL', expected: true, sent: 'SIGKILL' });
  add(55 * S, 'start', { node: 'f0', run: 2 });
  add(56 * S, 'perturb', { id: 1, phase: 'end', kind: 'kill', nodes: ['f0'] });
  for (let h = 1; h <= N; h++) {
    for (const n of NODES) {
      // f0 is down from 50 s to 55 s: it catches up at 55.5 s, its stream replays and its alerts fire then.
      const down = n === 'f0' && h >= 50 && h < 56;
      const at = down ? 55 * S + 500 + h : h * S;
      if (!down)
        add(at + 10, 'sample', {
          node: n,
          height: h,
          hash: `h${h}`,
          health: 200,
          rssKb: 200_000,
          fds: 40,
          run: n === 'f0' && h >= 50 ? 2 : 1,
        });
      add(at + 20, 'stream', {
        sub: `${n}-sse0`,
        kind: 'sse',
        node: n,
        conn: n === 'f0' && h >= 50 ? 2 : 1,
        event: 'block',
        id: String(h),
        height: h,
        hash: `h${h}`,
      });
      add(at + 30, 'webhook', { node: n, id: `msg-${n}-${h}`, subscription: `sub-${n}`, blockIndex: h, blockHash: `h${h}` });
    }
    if (h % 30 === 0) add(h * S + 40, 'routing', { foreign: [] });
  }
  for (let i = 0; i < 3; i++) add(10 * S + i, 'tx', { node: 'a1', hash: `tx${i}`, status: 200, nonce: i, account: 'oxacc' });
  add(N * S + 100, 'run', { phase: 'settle' });
  add(N * S + 200, 'run', { phase: 'sweep' });
  for (const n of NODES)
    for (let h = 0; h <= N; h++)
      add(N * S + 300, 'chain', { node: n, height: h, hash: `h${h}`, stateRoot: `s${h}`, txs: h === 12 ? ['tx0', 'tx1', 'tx2'] : [] });
  for (const n of NODES) add(N * S + 400, 'exit', { node: n, code: 0, signal: null, expected: true, sent: 'SIGTERM' });
  return r.sort((a, b) => a.t - b.t);
}

/** The verdict of each invariant, by its number. */
function verdicts(records: HistoryRecord[]): Record<string, string> {
  return Object.fromEntries(checkRecords(records).results.map((x) => [x.name.split(' ')[0], x.verdict]));
}

/** Checks that only invariant `n` fails, and that its evidence matches `evidence`. */
function failsOnly(records: HistoryRecord[], n: string, evidence: RegExp): void {
  const run = checkRecords(records);
  const failed = run.results.filter((x) => x.verdict === 'FAIL').map((x) => x.name.split(' ')[0]);
  assert.deepEqual(failed, [n], run.markdown);
  const r = run.results.find((x) => x.name.startsWith(`${n} `));
  assert.ok(
    r?.details.some((d) => evidence.test(d)),
    r?.details.join('\n'),
  );
  assert.ok(run.failed);
}

test('a clean run passes every invariant (memory not judged: too short)', () => {
  const v = verdicts(cleanRun());
  assert.deepEqual(v, { '0': 'PASS', '1': 'PASS', '2': 'PASS', '3': 'PASS', '4': 'PASS', '5': 'PASS', '6': 'N/A', '7': 'PASS' });
});

test('0: a foreign socket on a p2p port, or a peer id that changed, fails the relay precondition', () => {
  const r = cleanRun();
  r.push({ t: 60 * S, type: 'routing', foreign: [{ serverPort: 9000, clientPort: 41000 }] });
  failsOnly(r, '0', /reached p2p port 9000/);
  const moved = cleanRun();
  moved.push({ t: 60 * S, type: 'peers', node: 'a1', count: 3, direct: [], peerId: '12D3new', expected: '12D3old' });
  failsOnly(moved, '0', /a1 serves peer id 12D3new, not 12D3old/);
});

test('1: a final height that differs between nodes, or a reorg deeper than finality, fails agreement', () => {
  const r = cleanRun().map((x) => (x.type === 'chain' && x.node === 'a2' && x.height === 10 ? { ...x, stateRoot: 'other' } : x));
  failsOnly(r, '1', /height 10 \(final zone\) differs/);
  const deep = cleanRun();
  deep.push({
    t: 70 * S,
    type: 'stream',
    sub: 'a0-ws0',
    kind: 'ws',
    node: 'a0',
    conn: 1,
    event: 'reorg',
    fromHeight: 20,
    oldHead: { index: 170 },
  });
  failsOnly(deep, '1', /reorg of depth 151/);
});

test('2: a head that does not grow after a perturbation fails liveness', () => {
  // Every observation between 56 s and 70 s arrives only at 69.5 s, in its order: a 13.5 s stall.
  const late = (x: HistoryRecord) => (x.type === 'sample' || x.type === 'stream') && x.t > 56 * S && x.t < 70 * S;
  const r = cleanRun()
    .map((x) => (late(x) ? { ...x, t: 69.5 * S + (x.t - 56 * S) / 100 } : x))
    .sort((a, b) => a.t - b.t);
  failsOnly(r, '2', /#1 kill f0 end: head grew after 13\.\d s/);
});

test('3: an acknowledged transaction never included, or included twice, fails', () => {
  const r = cleanRun();
  r.push({ t: 30 * S, type: 'tx', node: 'f0', hash: 'lost', status: 200, nonce: 9, account: 'oxacc' });
  r.push({ t: N * S + 350, type: 'tx_final', node: 'f0', hash: 'lost', status: 200, body: { status: 'pending' } });
  failsOnly(r, '3', /lost acked by f0 .* never included; fault before: none; next fault: #1 kill 20.0 s later; .* f0:pending/);
  const twice = cleanRun().map((x) => (x.type === 'chain' && x.height === 13 ? { ...x, txs: ['tx1'] } : x));
  failsOnly(twice, '3', /tx1 included 2 times/);
});

test('4: a repeated or missing height on an SSE stream fails, and so does a stale branch', () => {
  const dup = cleanRun();
  dup.push({ t: 80 * S + 25, type: 'stream', sub: 'a0-sse0', kind: 'sse', node: 'a0', conn: 1, event: 'block', height: 80, hash: 'h80' });
  dup.sort((a, b) => a.t - b.t);
  failsOnly(dup, '4', /a0-sse0 conn 1: repeated height 80 after 80/);
  const gap = cleanRun().filter((x) => !(x.type === 'stream' && x.sub === 'a1-sse0' && x.height === 90));
  failsOnly(gap, '4', /a1-sse0 conn 1: gap: height 91 after 89/);
  const stale = cleanRun().map((x) => (x.type === 'stream' && x.sub === 'a2-sse0' && x.height === 100 ? { ...x, hash: 'fork' } : x));
  failsOnly(stale, '4', /a2-sse0: 1 heights end on a block not in the final chain \(first 100\)/);
});

test('4: a reorg event accounts for heights sent again', () => {
  const r = cleanRun();
  r.push({ t: 80 * S + 25, type: 'stream', sub: 'a0-sse0', kind: 'sse', node: 'a0', conn: 1, event: 'reorg', fromHeight: 79 });
  r.push({ t: 80 * S + 26, type: 'stream', sub: 'a0-sse0', kind: 'sse', node: 'a0', conn: 1, event: 'block', height: 79, hash: 'h79' });
  r.push({ t: 80 * S + 27, type: 'stream', sub: 'a0-sse0', kind: 'sse', node: 'a0', conn: 1, event: 'block', height: 80, hash: 'h80' });
  r.sort((a, b) => a.t - b.t);
  assert.equal(verdicts(r)['4'], 'PASS');
});

test('5: an undelivered alert, or one block under two webhook-ids, fails', () => {
  const lost = cleanRun().filter((x) => !(x.type === 'webhook' && x.node === 'a1' && x.blockIndex === 77));
  failsOnly(lost, '5', /a1: 1 final blocks never delivered \(heights 77\)/);
  const twoIds = cleanRun();
  twoIds.push({ t: 99 * S, type: 'webhook', node: 'a0', id: 'msg-other', subscription: 'sub-a0', blockIndex: 60, blockHash: 'h60' });
  failsOnly(twoIds, '5', /a0: block h60 delivered under 2 webhook-ids/);
});

test('6: RSS growing 100 MiB an hour after 10 minutes fails; flat passes; descriptors growing fail', () => {
  const run = (mibPerHour: number, fdsPerMin = 0): HistoryRecord[] => {
    const r = cleanRun().filter((x) => x.type !== 'sample');
    for (let s = 0; s < 20 * 60; s += 10)
      r.push({
        t: s * S + 5,
        type: 'sample',
        node: 'a2',
        height: s,
        run: 1,
        rssKb: 200_000 + (mibPerHour * 1024 * s) / 3600,
        fds: 40 + Math.floor((fdsPerMin * s) / 60),
      });
    return r.sort((a, b) => a.t - b.t);
  };
  const grow = checkRecords(run(100)).results.find((x) => x.name.startsWith('6 '));
  assert.equal(grow?.verdict, 'FAIL');
  assert.match(grow?.details[0] ?? '', /a2: RSS grows 100\.0 MiB\/h/);
  assert.equal(checkRecords(run(0)).results.find((x) => x.name.startsWith('6 '))?.verdict, 'PASS');
  const fds = checkRecords(run(0, 10)).results.find((x) => x.name.startsWith('6 '));
  assert.equal(fds?.verdict, 'FAIL');
  assert.match(fds?.details.join('\n') ?? '', /a2: open descriptors grew from 4\d to 2\d\d/);
  assert.equal(
    slope([
      { t: 0, v: 1 },
      { t: 1, v: 3 },
      { t: 2, v: 5 },
    ]),
    2,
  );
});

test('6: the slopes of anonymous memory and of the JS heap are reported beside the RSS, which alone is judged', () => {
  const r = cleanRun().filter((x) => x.type !== 'sample');
  for (let s = 0; s < 20 * 60; s += 10) {
    const anonKb = 150_000 + (40 * 1024 * s) / 3600;
    r.push({ t: s * S + 5, type: 'sample', node: 'a2', height: s, run: 1, rssKb: anonKb + 50_000, anonKb, fds: 40 });
    if (s % 60 === 0) r.push({ t: s * S + 6, type: 'heap', node: 'a2', run: 1, heapUsedKb: 60_000 + (8 * 1024 * s) / 3600 });
  }
  const six = checkRecords(r.sort((a, b) => a.t - b.t)).results.find((x) => x.name.startsWith('6 '));
  assert.equal(six?.verdict, 'FAIL');
  assert.match(six?.figures ?? '', /a2 \d+-\d+ MiB \(40\.0 MiB\/h; anonymous 40\.0, JS heap 8\.0\)/);
});

test("the sampler reads a node's heap gauges from its Prometheus text, in KiB", () => {
  const text = [
    '# HELP nodejs_heap_size_used_bytes Process heap size used from Node.js in bytes.',
    '# TYPE nodejs_heap_size_used_bytes gauge',
    'nodejs_heap_size_used_bytes 52428800',
    'nodejs_heap_size_total_bytes 104857600',
    'nodejs_external_memory_bytes 1024',
    'ombra_store_memory_bytes 2048',
    'nodejs_heap_space_size_used_bytes{space="old"} 999',
  ].join('\n');
  assert.deepEqual(heapStats(text), { heapUsedKb: 51_200, heapTotalKb: 102_400, externalKb: 1, storeKb: 2 });
  assert.deepEqual(heapStats('garbage\nnodejs_heap_size_used_bytes NaN'), {});
});

test('7: an exit nobody asked for, or an undocumented error line, fails; a documented one passes', () => {
  const exit = cleanRun();
  exit.push({ t: 90 * S, type: 'exit', node: 'a1', code: 1, signal: null, expected: false });
  failsOnly(exit, '7', /a1 exited on its own: code 1/);
  const err = cleanRun();
  err.push({ t: 90 * S, type: 'log', node: 'f0', level: 'error', msg: 'request failed', line: '{"msg":"request failed"}' });
  failsOnly(err, '7', /1 x "error request failed"/);
  const documented = cleanRun();
  documented.push({ t: 90 * S, type: 'log', node: 'a0', level: 'error', msg: 'block production failed', line: '{}' });
  assert.equal(verdicts(documented)['7'], 'PASS');
});
