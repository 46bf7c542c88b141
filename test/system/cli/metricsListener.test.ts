/**
 * GET /metrics has its own listener: off --dev it is not on the API port (unless
 * --metrics-public), a taken metrics port is one line naming --metrics-addr, and `ombra testnet`
 * prints start commands whose metrics ports differ.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { testnetGenesis } from '../../../cli/testnet.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { startNodeProcess } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

/** A genesis file for a follower (no key: it never produces). */
function genesisFile(dir: string): string {
  const file = join(dir, 'genesis.json');
  writeFileSync(file, JSON.stringify(testnetGenesis(1, 1000, 'metrics-test', Date.now())));
  return file;
}

const statusOf = async (url: string) => (await fetch(url)).status;

test('off --dev, /metrics answers on --metrics-addr and not on the API port; --metrics-public and --dev put it there too', async () => {
  const tmp = tempDir();
  try {
    const genesis = genesisFile(tmp.dir);
    for (const [args, onApi] of [
      [['--genesis', genesis, '--data-dir', join(tmp.dir, 'a')], false],
      [['--genesis', genesis, '--data-dir', join(tmp.dir, 'b'), '--metrics-public'], true],
      [['--dev', '--data-dir', join(tmp.dir, 'c')], true],
    ] as const) {
      const p = await startNodeProcess([...args]);
      try {
        assert.equal(await statusOf(`${p.url}/metrics`), onApi ? 200 : 404, `${args.join(' ')}: the API port`);
        assert.equal(await statusOf(`${p.url}/api/health`), 200);
        const listener = /"metrics":"([^"]+)"/.exec(p.stderr())?.[1];
        assert.ok(listener, `the start log names the metrics URL: ${p.stderr().slice(0, 400)}`);
        const res = await fetch(listener);
        assert.equal(res.status, 200);
        assert.match(await res.text(), /^ombra_\w+ /m);
        assert.equal(await statusOf(listener.replace('/metrics', '/api/health')), 404, 'the listener serves nothing else');
      } finally {
        p.child.kill('SIGTERM');
        await p.exited;
      }
    }
  } finally {
    tmp.cleanup();
  }
});

test('a taken metrics (or HTTP) port is a one-line startup error naming its flag', async () => {
  const tmp = tempDir();
  const taken: Server = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  try {
    const port = (taken.address() as { port: number }).port;
    const args = ['start', '--genesis', genesisFile(tmp.dir), '--data-dir', tmp.dir, '--http-port', '0', '--p2p-port', '0'];
    const run = await runCli([...args, '--metrics-addr', `127.0.0.1:${port}`]);
    assert.equal(run.code, 1, run.stderr);
    const last = run.stderr.trim().split('\n').at(-1) ?? '';
    assert.match(last, literal(new RegExp(`^ombra start: --metrics-addr 127\\.0\\.0\\.1:${port} is taken by another process`)));
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
    // The HTTP port the same way.
    const http = await runCli(['start', '--dev', '--data-dir', join(tmp.dir, 'dev'), '--http-port', String(port), '--p2p-port', '0']);
    assert.equal(http.code, 1, http.stderr);
    assert.match(
      http.stderr.trim().split('\n').at(-1) ?? '',
      /^ombra start: the HTTP address 127\.0\.0\.1:\d+ is taken by another process: .*--http-port/,
    );
    assert.doesNotMatch(http.stderr, /\n\s+at /, 'no stack trace');
    const bad = await runCli([...args, '--metrics-addr', 'nowhere']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--metrics-addr nowhere must be HOST:PORT/);
  } finally {
    taken.close();
    tmp.cleanup();
  }
});

test('ombra testnet prints a start command per node with distinct HTTP, p2p and metrics ports', async () => {
  const tmp = tempDir();
  try {
    const run = await runCli(['testnet', '--nodes', '4', '--out', tmp.dir]);
    assert.equal(run.code, 0, run.stderr);
    const commands = run.stdout.split('\n').filter((l) => l.trim().startsWith('npx ombra start '));
    assert.equal(commands.length, 4);
    for (const flag of ['--metrics-addr', '--http-port', '--p2p-port']) {
      const values = commands.map((c) => new RegExp(`${flag} (\\S+)`).exec(c)?.[1]);
      assert.ok(values.every(Boolean), flag);
      assert.equal(new Set(values).size, 4, `${flag}: ${values}`);
    }
  } finally {
    tmp.cleanup();
  }
});
