/** `ombra tail` against real `ombra start` processes: NDJSON, human output, and a node restart with no gap. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { backoffMs } from '../../../../cli/tail/tail.ts';
import { formatHuman, formatJson } from '../../../../cli/tail/tailFormat.ts';
import { REPO_ROOT } from '../../../helpers/cliRun.ts';
import { startNodeProcess, waitFor, type NodeProcess } from '../../../helpers/nodeProcess.ts';
import { tempDir } from '../../../helpers/testChain.ts';

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** `ombra tail ...args` as a child process collecting stdout lines. */
function startTail(args: string[]) {
  const child = spawn(process.execPath, ['cli/bin.js', 'tail', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { text: '', err: '' };
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out.text += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out.err += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, out, exited, lines: () => out.text.split('\n').filter(Boolean) };
}

async function stopNode(n: NodeProcess): Promise<void> {
  n.child.kill('SIGKILL');
  await n.exited;
}

test('the backoff is 1, 2, 4, 8, 16 s, then capped at 30 s', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 20].map(backoffMs), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test('human lines are aligned columns, coloured only when asked; --json lines are {event, id, data}', () => {
  const at = new Date('2030-01-01T12:34:56.789Z');
  const block = {
    event: 'block',
    id: '7',
    data: { index: 7, hash: 'ab'.repeat(32), proposer: `ox${'cd'.repeat(20)}`, transactions: [{}, {}], timestamp: 1 },
  };
  const tx = { event: 'tx', data: { type: 'tx', txType: 'TRANSFER', hash: 'ef'.repeat(32) } };
  // A block is stamped with its own time (timestamp 1 = 00:00:00.001), not the local time.
  assert.equal(formatHuman(block, false, at), '00:00:00.001  block  #7         2 txs     hash ababababab…  proposer oxcdcdcdcd…');
  assert.equal(formatHuman(tx, false, at), '12:34:56.789  tx     TRANSFER             hash efefefefef…  pending');
  assert.match(formatHuman(block, true, at), /\x1b\[32mblock \x1b\[0m/);
  assert.deepEqual(JSON.parse(formatJson(block)), block);
  // With tx events on, a block's transactions follow with the fields of their type, from the schema.
  const withTxs = {
    event: 'block',
    data: {
      index: 8,
      hash: 'ab'.repeat(32),
      proposer: `ox${'cd'.repeat(20)}`,
      timestamp: Date.UTC(2030, 0, 1, 1, 2, 3, 4),
      transactions: [
        {
          type: 'TRANSFER',
          hash: '12'.repeat(32),
          from: `ox${'aa'.repeat(20)}`,
          to: `ox${'bb'.repeat(20)}`,
          amount: '1500000',
          fee: '1000',
          nonce: 3,
        },
      ],
    },
  };
  const lines = formatHuman(withTxs, false, at, true).split('\n');
  assert.equal(lines.length, 2);
  assert.equal(lines[1], '01:02:03.004  tx     TRANSFER             hash 1212121212…  to oxbbbbbbbbbb…  amount 1.5 OMBRA');
  assert.deepEqual(JSON.parse(formatJson(tx)), tx);
});

test('tail follows a node across a restart: the blocks after it come from the next height, no gap, no duplicate; SIGINT exits 0', async () => {
  const tmp = tempDir('ombra-tail-');
  const port = await freePort();
  const args = ['--dev', '--data-dir', tmp.dir, '--http-port', String(port), '--block-time-ms', '200'];
  let node: NodeProcess | null = await startNodeProcess(args);
  const tail = startTail(['--url', node.url, '--json', '--events', 'block']);
  try {
    const heights = () =>
      tail
        .lines()
        .map((l) => JSON.parse(l))
        .map((e) => e.data.index as number);
    await waitFor(async () => (heights().length >= 3 ? true : undefined), 20_000);
    await stopNode(node);
    node = null;
    const before = heights().at(-1)!;
    await waitFor(async () => (/reconnecting/.test(tail.out.err) ? true : undefined), 20_000);
    node = await startNodeProcess(args);
    await waitFor(async () => ((heights().at(-1) ?? 0) >= before + 3 ? true : undefined), 30_000);
    const seen = heights();
    assert.deepEqual(
      seen,
      Array.from({ length: seen.length }, (_, i) => seen[0] + i),
      `no gap and no duplicate: ${seen.join(',')}`,
    );
    assert.match(tail.out.err, /resuming after \d+/);
    for (const l of tail.lines()) assert.deepEqual(Object.keys(JSON.parse(l)), ['event', 'id', 'data']);
    tail.child.kill('SIGINT');
    assert.equal(await tail.exited, 0);
  } finally {
    tail.child.kill('SIGKILL');
    if (node) await stopNode(node);
    tmp.cleanup();
  }
});

test('a malformed --from-height or an unknown event is a usage error (exit 2)', async () => {
  const tmp = tempDir('ombra-tail-');
  const node = await startNodeProcess(['--dev', '--data-dir', tmp.dir, '--block-time-ms', '60000']);
  const tail = startTail(['--url', node.url, '--from-height', 'x']);
  const bad = startTail(['--url', node.url, '--events', 'nope']);
  try {
    assert.equal(await tail.exited, 2, 'a malformed --from-height is a usage error');
    assert.equal(await bad.exited, 2);
    assert.match(bad.out.err, /unknown event nope/);
  } finally {
    await stopNode(node);
    tmp.cleanup();
  }
});
