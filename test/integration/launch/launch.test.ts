/** launch() wires the live streams: SSE and both WebSocket paths on the node's own server, all closed by stop(). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { devGenesis } from '../../../cli/start/genesisFile.ts';
import { launch } from '../../../launch/launch.ts';
import { startSmtp, until } from '../../helpers/alertKit.ts';
import { SseClient, WsClient } from '../../helpers/streamClients.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';

test('a launched dev node streams blocks over SSE, /api/ws and /ws, and stop() ends open streams', async () => {
  const tmp = tempDir();
  const node = await launch({
    dataDir: tmp.dir,
    genesis: devGenesis(200),
    key: DEV_KEYS[0],
    dev: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
  });
  try {
    const ws = node.url.replace('http', 'ws');
    const sse = await SseClient.open(`${node.url}/api/chain/events`);
    const api = await WsClient.open(`${ws}/api/ws`);
    const old = await WsClient.open(`${ws}/ws`);
    await api.request({ action: 'subscribe', channel: 'blocks' });
    await old.request({ type: 'subscribe', topic: 'new_block' });
    // The SSE stream was open before the sockets subscribed, so its first block may predate their
    // subscriptions: each socket must see that block or a later one.
    const b = await sse.waitFor((m) => m.event === 'block');
    await api.waitFor((m) => m.type === 'block' && m.data.index >= b.data.index);
    await old.waitFor((m) => m.type === 'new_block' && m.data.index >= b.data.index);
    assert.equal(node.streams.subscriberCount, 3);
    await node.stop();
    await sse.done;
    assert.ok(sse.ended);
    assert.ok((await api.closed()).code > 0);
    assert.ok((await old.closed()).code > 0);
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});

test('without a public URL, alert links point at the address the HTTP server bound (given at construction, not set after start)', async () => {
  const tmp = tempDir();
  const smtp = await startSmtp();
  const node = await launch({
    dataDir: tmp.dir,
    genesis: devGenesis(200),
    dev: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
    alerts: { smtpUrl: smtp.url },
  });
  try {
    const res = await fetch(`${node.url}/api/alerts/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        trigger: 'address_tx',
        params: { address: `ox${'ef'.repeat(20)}` },
        channel: 'email',
        target: 'me@example.com',
      }),
    });
    assert.ok(res.ok, `subscribe answered ${res.status}`);
    await until(() => smtp.mails.length === 1, 8000, 'confirmation mail');
    const text = smtp.mails[0].raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    assert.ok(text.includes(`${node.url}/api/alerts/confirm/`), `the link is on ${node.url}`);
  } finally {
    await node.stop();
    await smtp.close();
    tmp.cleanup();
  }
});
