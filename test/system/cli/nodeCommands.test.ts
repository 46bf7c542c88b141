/**
 * The commands that call a node, as an operator meets them: `--api-key` (and OMBRA_API_KEY) sent
 * as X-API-Key, a keystore's address read without its password, one-line usage errors, and
 * `ombra testnet` printing start lines that run as printed.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encryptKeystore, decryptKeystore, KeystoreError } from '../../../cli/wallet/keystore.ts';
import { keyPairFromPrivateKey } from '../../../core/keys.ts';
import { loadOrCreatePeerKey } from '../../../p2p/identity.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';
import { errorMessage } from '../../../core/errors.ts';

/** A stand-in node on a loopback port that records each request's path and headers. */
async function recordingNode(): Promise<{ url: string; seen: { path: string; headers: IncomingHttpHeaders }[]; close(): Promise<void> }> {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ address: DEV_KEYS[1].address, balance: '2500000', nonce: 3 }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise((r) => server.close(() => r())) };
}

test('wallet balance sends --api-key, or OMBRA_API_KEY, as X-API-Key', async () => {
  const node = await recordingNode();
  try {
    const flag = await runCli(['wallet', 'balance', '--address', DEV_KEYS[1].address, '--url', node.url, '--api-key', 'k-flag']);
    assert.equal(flag.code, 0, flag.stderr);
    assert.match(flag.stdout, /2\.5 OMBRA \(2500000 micro-units\)/);
    const env = await runCli(['wallet', 'balance', '--address', DEV_KEYS[1].address, '--url', node.url], {
      env: { OMBRA_API_KEY: 'k-env' },
    });
    assert.equal(env.code, 0, env.stderr);
    const none = await runCli(['wallet', 'balance', '--address', DEV_KEYS[1].address, '--url', node.url]);
    assert.equal(none.code, 0, none.stderr);
    assert.deepEqual(
      node.seen.map((s) => s.headers['x-api-key']),
      ['k-flag', 'k-env', undefined],
    );
  } finally {
    await node.close();
  }
});

test('an API key with spaces or control characters is a one-line usage error', async () => {
  const r = await runCli(['wallet', 'balance', '--address', DEV_KEYS[1].address, '--api-key', 'a b']);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'ombra wallet: --api-key must be 1-256 printable characters without spaces (see `ombra wallet balance --help`)\n');
});

test('every command that calls a node documents --api-key and its environment twin', async () => {
  for (const args of [['tail'], ['simulate'], ['wallet', 'send'], ['wallet', 'balance'], ['drive', 'push']]) {
    const r = await runCli([...args, '--help']);
    assert.equal(r.code, 0, args.join(' '));
    assert.match(r.stdout, /--api-key VALUE .*env OMBRA_API_KEY/, args.join(' '));
  }
});

test('wallet address and balance read a keystore address without asking for its password', async () => {
  const tmp = tempDir('ombra-cli-ks-');
  const node = await recordingNode();
  try {
    const key = DEV_KEYS[1];
    const file = join(tmp.dir, 'ks.json');
    writeFileSync(file, JSON.stringify(await encryptKeystore(key, 'pw', { n: 256, r: 8, p: 1 })));
    // No OMBRA_KEYSTORE_PASSWORD and no terminal: a password prompt would fail the command.
    const address = await runCli(['wallet', 'address', '--keystore', file, '--json'], { env: { OMBRA_KEYSTORE_PASSWORD: undefined } });
    assert.equal(address.code, 0, address.stderr);
    assert.deepEqual(JSON.parse(address.stdout), { index: null, address: key.address, path: null });
    const balance = await runCli(['wallet', 'balance', '--keystore', file, '--url', node.url], {
      env: { OMBRA_KEYSTORE_PASSWORD: undefined },
    });
    assert.equal(balance.code, 0, balance.stderr);
    assert.equal(node.seen[0].path, `/api/chain/account/${key.address}`);
  } finally {
    await node.close();
    tmp.cleanup();
  }
});

test('a keystore whose clear address is not its key is refused when decrypted', async () => {
  const store = await encryptKeystore(DEV_KEYS[1], 'pw', { n: 256, r: 8, p: 1 });
  const forged = { ...store, address: DEV_KEYS[2].address };
  try {
    await decryptKeystore(forged, 'pw', 'keystore ks.json');
    assert.fail('a keystore naming another address decrypted');
  } catch (e) {
    assert.ok(e instanceof KeystoreError);
    assert.match(errorMessage(e), /names address .* but holds the key of /);
  }
  assert.deepEqual(await decryptKeystore(store, 'pw'), keyPairFromPrivateKey(DEV_KEYS[1].privateKey));
});

test('testnet prints npx start lines with node 0 peer id spelt out, no curl or jq', async () => {
  const tmp = tempDir('ombra-cli-testnet-');
  try {
    const r = await runCli(['testnet', '--nodes', '3', '--out', tmp.dir]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.split('\n').filter((l) => l.includes('ombra start'));
    assert.equal(lines.length, 3);
    for (const l of lines) {
      assert.match(l, /^ {2}npx ombra start /);
      assert.doesNotMatch(l, /curl|jq|\$\(/);
    }
    const peer = /--peer (\/ip4\/127\.0\.0\.1\/tcp\/7778\/p2p\/(12D3Koo[1-9A-HJ-NP-Za-km-z]+))/.exec(lines[1]);
    assert.ok(peer, lines[1]);
    assert.equal(lines[2].match(/--peer \S+/)?.[0], `--peer ${peer[1]}`);
    // The identity a start on node 0's data dir will use (kept there, as a start keeps it).
    assert.equal((await loadOrCreatePeerKey(join(tmp.dir, 'node0', 'data'))).publicKey.toString(), peer[2]);
  } finally {
    tmp.cleanup();
  }
});
