/** The admin socket: bad input is refused with {error, code} and changes nothing; a snapshot is taken at one height. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AdminServer } from '../../../api/adminServer.ts';
import { noNetwork } from '../../../api/context.ts';
import { silentLogger } from '../../../node/log.ts';
import { openSnapshotView } from '../../../node/store/snapshotView.ts';
import { ApiKeyStore } from '../../../services/apiKeys.ts';
import { openTestChain } from '../../helpers/testChain.ts';

function call(path: string, method: string, sock: string, body?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: sock, path, method }, async (res) => {
      let text = '';
      for await (const c of res) text += c;
      resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('refuses bad tiers, labels, bodies and routes with {error, code}, creating nothing', async () => {
  const chain = await openTestChain();
  const keys = await new ApiKeyStore(chain.node.store).load();
  const admin = new AdminServer(
    { keys, store: chain.node.store, genesis: chain.genesis, network: noNetwork, log: silentLogger },
    chain.dir,
  );
  await admin.start();
  try {
    assert.equal(statSync(admin.path).mode & 0o777, 0o600);
    for (const body of [
      '{"tier":3}',
      '{"tier":"2"}',
      'not json',
      `{"tier":2,"label":"${'x'.repeat(500)}"}`,
      '{"tier":2,"label":"a\\u0007"}',
    ]) {
      const r = await call('/admin/keys', 'POST', admin.path, body);
      assert.equal(r.status, 400, body);
      assert.equal(r.json.code, 'INVALID_PARAMS');
    }
    assert.equal(keys.all().length, 0);
    assert.equal((await call('/admin/keys/key_nope', 'DELETE', admin.path)).status, 404);
    assert.equal((await call('/admin/nothing', 'GET', admin.path)).json.code, 'NOT_FOUND');
    const made = await call('/admin/keys', 'POST', admin.path, '{"tier":2,"label":"ok"}');
    assert.equal(made.status, 200);
    assert.ok(keys.check(made.json.key as string).ok, 'the running store has it at once');
  } finally {
    await admin.stop();
    await chain.destroy();
  }
});

test('a data dir too long for a Unix socket path still starts: the socket is skipped with a warning', async () => {
  const chain = await openTestChain();
  const warned: string[] = [];
  const log = { ...silentLogger, warn: (msg: string) => void warned.push(msg) };
  const deep = join(chain.dir, 'd'.repeat(120));
  mkdirSync(deep);
  const admin = new AdminServer(
    { keys: new ApiKeyStore(chain.node.store), store: chain.node.store, genesis: chain.genesis, network: noNetwork, log },
    deep,
  );
  try {
    await admin.start();
    assert.match(warned.join(), /admin socket unavailable/);
    assert.ok(!existsSync(admin.path));
  } finally {
    await admin.stop();
    await chain.destroy();
  }
});

test('a snapshot view keeps its height while blocks are appended after it opened', async () => {
  const chain = await openTestChain();
  try {
    await chain.produce(3);
    const view = await openSnapshotView(chain.node.store);
    await chain.produce(2);
    const lines: string[] = [];
    for await (const l of view.lines()) lines.push(l);
    assert.equal(view.head.index, 3);
    assert.equal(lines.length, 5, 'genesis + blocks 0..3');
    assert.equal(JSON.parse(lines[4]).hash, view.head.hash);
  } finally {
    await chain.destroy();
  }
});
