/**
 * Startup failures are one line and an exit code (a stack only under --log-level debug): a taken
 * p2p port names the port and its flag. A dev node takes loopback webhooks; a network node's
 * refusal names the flag that allows them.
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

const STACK = /\n\s+at /;

test('a taken p2p port is one line naming the port and --p2p-port, printed once, exit 1', async () => {
  const tmp = tempDir();
  const taken: Server = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
  try {
    const port = (taken.address() as { port: number }).port;
    const r = await runCli(['start', '--dev', '--data-dir', tmp.dir, '--http-port', '0', '--p2p-port', String(port)]);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0],
      literal(new RegExp(`^ombra start: the p2p address 127\\.0\\.0\\.1:${port} is taken by another process: .*--p2p-port`)),
    );
    assert.doesNotMatch(r.stderr, /faultTolerance/);
  } finally {
    taken.close();
    tmp.cleanup();
  }
});

test('any other startup failure is one line; --log-level debug adds the stack', async () => {
  const tmp = tempDir();
  try {
    // A data dir that is a file: LevelDB cannot open it.
    const file = join(tmp.dir, 'not-a-dir');
    writeFileSync(file, 'x');
    const args = ['start', '--dev', '--data-dir', file, '--http-port', '0', '--p2p-port', '0'];
    const plain = await runCli(args);
    assert.equal(plain.code, 1, plain.stderr);
    assert.equal(plain.stderr.trim().split('\n').length, 1, plain.stderr);
    assert.match(plain.stderr, /^ombra start: .+ \(--log-level debug shows where\)\n$/);
    const debug = await runCli([...args, '--log-level', 'debug']);
    assert.equal(debug.code, 1);
    assert.match(debug.stderr, literal(STACK));
    const env = await runCli(args, { env: { OMBRA_LOG_LEVEL: 'debug' } });
    assert.match(env.stderr, literal(STACK), 'OMBRA_LOG_LEVEL=debug too');
  } finally {
    tmp.cleanup();
  }
});

/** Subscribes a webhook to `target` on the node at `url`. */
const subscribe = (url: string, target: string) =>
  fetch(`${url}/api/alerts/subscribe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ trigger: 'miner_block', params: {}, channel: 'webhook', target }),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: string; code?: string } }));

test('--dev takes a loopback webhook; a network node refuses it naming --webhook-allow-private', async () => {
  const tmp = tempDir();
  try {
    const dev = await startNodeProcess(['--dev', '--data-dir', join(tmp.dir, 'dev')]);
    try {
      const res = await subscribe(dev.url, 'http://127.0.0.1:9/hook');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(typeof (res.body as { id?: string }).id, 'string');
    } finally {
      dev.child.kill('SIGTERM');
      await dev.exited;
    }
    const genesis = join(tmp.dir, 'genesis.json');
    writeFileSync(genesis, JSON.stringify(testnetGenesis(1, 1000, 'webhook-test', Date.now())));
    const net = await startNodeProcess(['--genesis', genesis, '--data-dir', join(tmp.dir, 'net')]);
    try {
      const res = await subscribe(net.url, 'http://127.0.0.1:9/hook');
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'INVALID_PARAMS');
      assert.match(res.body.error ?? '', /target refused: .*--webhook-allow-private/);
    } finally {
      net.child.kill('SIGTERM');
      await net.exited;
    }
  } finally {
    tmp.cleanup();
  }
});

test('--p2p-announce takes a multiaddr without /p2p/ and refuses anything else by name, exit 2', async () => {
  const tmp = tempDir();
  try {
    for (const bad of ['127.0.0.1:7778', '/ip4/127.0.0.1/tcp/7778/p2p/12D3KooWLsSWaRsoCejZ6RMsGqdftpKbohczNqs3jvNfPgRwrMp2']) {
      const r = await runCli(['start', '--dev', '--data-dir', tmp.dir, '--http-port', '0', '--p2p-port', '0', '--p2p-announce', bad]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, literal(`--p2p-announce ${bad} must be a multiaddr like /ip4/203.0.113.7/tcp/7778 (no /p2p/)`));
    }
  } finally {
    tmp.cleanup();
  }
});
