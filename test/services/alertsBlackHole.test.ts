/** 200 subscriptions to a target that never answers: the outbox stays bounded and a healthy subscriber is not delayed. */
import { createServer, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { answer, openAlertChain, startReceiver, subscribe, until } from '../helpers/alertKit.ts';

const t = suite('alerts against a black hole');
const STRANGER = `ox${'bd'.repeat(20)}`;

t('200 subscriptions to a black hole: outbox bounded, per-target concurrency keeps a healthy subscriber on time', async () => {
  const sockets = new Set<Socket>();
  const hole = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => hole.listen(0, '127.0.0.1', r));
  const holeUrl = `http://127.0.0.1:${(hole.address() as { port: number }).port}/hook`;
  const healthy = await startReceiver(answer(200));
  const c = await openAlertChain({
    maxSubsPerToken: 500,
    maxSubsPerIp: 500,
    timeoutMs: 20_000,
    retryDelaysMs: [50, 50, 50],
    maxOutbox: 1000,
    maxPendingPerSub: 3,
  });
  try {
    let token: string | undefined;
    for (let i = 0; i < 200; i++) {
      const s = await subscribe(
        c,
        { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: holeUrl },
        token ? { 'X-Alert-Token': token } : {},
      );
      assert.is(s.status, 201, JSON.stringify(s.body));
      token = s.body.token;
    }
    await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: healthy.url });
    let most = 0;
    for (let n = 1; n <= 5; n++) {
      await c.node.submitTx(c.transfer(1, STRANGER, '5'));
      await c.produce();
      // The healthy target hears of each block while every black-hole attempt is still hanging.
      await until(() => healthy.got.length === n, 3000, `healthy delivery ${n}`);
      most = Math.max(most, c.alerts.pendingCount());
    }
    // Bounded by the per-subscription cap (200 x 3, plus the healthy one), under the global one.
    assert.ok(most <= 601, `outbox held ${most}`);
    assert.ok(most >= 200, `the black-hole deliveries wait (${most})`);
    // At most 2 connections to the black hole at any time (per-target concurrency).
    assert.ok(sockets.size <= 2, `${sockets.size} connections to the black hole`);
  } finally {
    for (const s of sockets) s.destroy();
    await c.destroy();
    await healthy.close();
    await new Promise<void>((r) => hole.close(() => r()));
  }
});

t.run();
