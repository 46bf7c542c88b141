/**
 * 200 subscriptions to a target that never answers: the outbox stays bounded, a healthy
 * subscriber's p99 delivery latency is what it is without the black hole, and the dead
 * subscriptions end up disabled.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, openAlertChain, startReceiver, subscribe, until, type AlertChain, type Receiver } from '../../../helpers/alertKit.ts';

const STRANGER = `ox${'bd'.repeat(20)}`;
const BLOCKS = 20;
const DEAD = 200;
const OPTS = {
  maxSubsPerToken: 500,
  maxSubsPerIp: 500,
  timeoutMs: 250,
  retryDelaysMs: [20, 20, 20],
  maxOutbox: 1000,
  maxPendingPerSub: 3,
  maxConcurrent: 64,
  maxConcurrentPerTarget: 25,
  disableAfterFailures: 2,
};

/** A TCP server that accepts and never answers. */
async function blackHole(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const hole: Server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => hole.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(hole.address() as { port: number }).port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        hole.close(() => r());
      }),
  };
}

/** Commits BLOCKS blocks that fire every subscription; answers the healthy receiver's latencies (ms) and the largest outbox seen. */
async function run(c: AlertChain, healthy: Receiver): Promise<{ latencies: number[]; most: number }> {
  const latencies: number[] = [];
  let most = 0;
  for (let n = 1; n <= BLOCKS; n++) {
    await c.node.submitTx(c.transfer(1, STRANGER, '5'));
    const start = performance.now();
    await c.produce();
    most = Math.max(most, c.alerts.pendingCount());
    await until(() => healthy.got.length === n, 10_000, `healthy delivery ${n}`);
    latencies.push(healthy.got[n - 1].at - start);
  }
  return { latencies, most };
}

/** Nearest-rank 99th percentile. */
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.99 * xs.length) - 1];

test('200 subscriptions to a black hole: outbox bounded, the healthy p99 unchanged, the dead ones disabled', async () => {
  const healthy = await startReceiver(answer(200));
  const hole = await blackHole();
  const hook = { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook' };
  let baseline: number;
  // The same chain and load without the black hole: the latency to compare with.
  const quiet = await openAlertChain(OPTS);
  try {
    await subscribe(quiet, { ...hook, target: healthy.url });
    baseline = p99((await run(quiet, healthy)).latencies);
  } finally {
    await quiet.destroy();
  }
  healthy.got.length = 0;
  const c = await openAlertChain(OPTS);
  try {
    let token: string | undefined;
    for (let i = 0; i < DEAD; i++) {
      const s = await subscribe(c, { ...hook, target: hole.url }, token ? { 'X-Alert-Token': token } : {});
      assert.equal(s.status, 200, JSON.stringify(s.body));
      token = s.body.token;
    }
    const good = await subscribe(c, { ...hook, target: healthy.url });
    const { latencies, most } = await run(c, healthy);
    const loaded = p99(latencies);
    // Generous: a healthy subscriber queued behind the black hole waits whole attempt deadlines (250 ms each).
    assert.ok(loaded <= 3 * baseline + 100, `healthy p99 ${loaded.toFixed(1)} ms beside the black hole, ${baseline.toFixed(1)} ms without`);
    // Bounded by the per-subscription cap (200 x 3, plus the healthy one), under the global one.
    assert.ok(most <= DEAD * 3 + 1, `outbox held ${most}`);
    // Every dead subscription runs into its failures and is disabled; its deliveries go with it.
    await until(() => c.alerts.pendingCount() === 0, 60_000, 'dead subscriptions disabled');
    const res = await c.app.request('/api/alerts/', { headers: { 'X-Alert-Token': token as string } });
    const subs = ((await res.json()) as { alerts: { status: string; disabledReason: string }[] }).alerts;
    assert.equal(subs.length, DEAD);
    assert.ok(
      subs.every((s) => s.status === 'disabled' && /no answer within 250 ms/.test(s.disabledReason)),
      JSON.stringify(subs.find((s) => s.status !== 'disabled')),
    );
    const mine = await c.app.request('/api/alerts/', { headers: { 'X-Alert-Token': good.body.token } });
    const [h] = ((await mine.json()) as { alerts: { status: string; delivered: number }[] }).alerts;
    assert.deepEqual({ status: h.status, delivered: h.delivered }, { status: 'active', delivered: BLOCKS });
  } finally {
    await c.destroy();
    await healthy.close();
    await hole.close();
  }
});
