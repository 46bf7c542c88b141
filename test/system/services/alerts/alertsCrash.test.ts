/** kill -9 in the middle of a retry schedule loses no delivery: a real node process, killed and restarted. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../../core/txCodec.ts';
import { answer, startReceiver, until } from '../../../helpers/alertKit.ts';
import { startNodeProcess } from '../../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../../helpers/testChain.ts';

const STRANGER = `ox${'cd'.repeat(20)}`;

test('a delivery failing when the node is killed is completed once after the restart, with the same webhook-id', async () => {
  let fail = true;
  const r = await startReceiver((n, req, res) => (fail ? answer(500) : answer(200))(n, req, res));
  const tmp = tempDir();
  const args = ['--dev', '--data-dir', tmp.dir, '--block-time-ms', '200', '--webhook-allow-private', '--rate-limits', 'on'];
  let node = await startNodeProcess(args);
  try {
    const sub = (await (
      await fetch(`${node.url}/api/alerts/subscribe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url }),
      })
    ).json()) as any;
    assert.ok(sub.token, JSON.stringify(sub));
    const k = DEV_KEYS[2];
    const tx = signTx({ type: 'TRANSFER', from: k.address, to: STRANGER, amount: '9', fee: '1000', nonce: 0, timestamp: Date.now() }, k);
    const posted = await fetch(`${node.url}/api/chain/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tx),
    });
    assert.equal(posted.status, 200);
    assert.ok(posted.headers.get('x-ratelimit-limit'), 'rate limits are on');
    await until(() => r.got.length >= 1, 10_000, 'first attempt');
    node.child.kill('SIGKILL');
    await node.exited;
    fail = false;
    const before = r.got.length;
    node = await startNodeProcess(args);
    // The next attempt was due 2 s after the first failed one; it happens after the restart.
    await until(() => r.got.length > before && r.got.some((_g, i) => i >= before), 12_000, 'attempt after restart');
    await new Promise((res) => setTimeout(res, 500));
    const ids = new Set(r.got.map((g) => g.headers['webhook-id']));
    assert.equal(ids.size, 1, 'one delivery id throughout');
    assert.equal(r.got.length, before + 1, 'delivered exactly once after the restart');
    const list = (await (await fetch(`${node.url}/api/alerts/`, { headers: { 'X-Alert-Token': sub.token } })).json()) as any;
    assert.deepEqual({ delivered: list.alerts[0].delivered, pending: list.alerts[0].pending }, { delivered: 1, pending: 0 });
  } finally {
    node.child.kill('SIGKILL');
    await node.exited;
    await r.close();
    tmp.cleanup();
  }
});
