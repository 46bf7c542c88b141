/** Alert delivery end to end: real blocks, real receivers on loopback, a real SMTP server. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../../core/block.ts';
import {
  answer,
  confirmByMail,
  listAlerts,
  payAndCommit,
  openAlertChain,
  sleep,
  startReceiver,
  startSmtp,
  subscribe,
  until,
  verifySignature,
  type AlertChain,
  type Receiver,
} from '../../../helpers/alertKit.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';

const STRANGER = `ox${'ab'.repeat(20)}`;
const FAST = [40, 80, 160];

async function withKit(
  opts: Parameters<typeof openAlertChain>[0],
  fn: (c: AlertChain) => Promise<void>,
  ...receivers: Receiver[]
): Promise<void> {
  const c = await openAlertChain(opts);
  try {
    await fn(c);
  } finally {
    await c.destroy();
    for (const r of receivers) await r.close();
  }
}

test('a 2xx answer delivers once: spec headers, spec body, a signature the receiver verifies with its signing secret, not its token', async () => {
  const r = await startReceiver(answer(200));
  await withKit(
    { retryDelaysMs: FAST },
    async (c) => {
      const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      assert.equal(sub.status, 200);
      const hash = await payAndCommit(c, STRANGER);
      await until(() => r.got.length === 1, 60_000, 'delivery');
      const got = r.got[0];
      assert.equal(got.headers['x-chain-trigger'], 'address_tx');
      assert.equal(got.headers['x-chain-subscription'], sub.body.id);
      assert.equal(got.headers['content-type'], 'application/json');
      assert.match(String(got.headers['webhook-id']), /^msg_[0-9a-f]{32}$/);
      assert.match(String(got.headers['webhook-timestamp']), /^[0-9]{10}$/);
      assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 5, 'webhook-timestamp is now');
      assert.match(sub.body.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.ok(verifySignature(sub.body.secret, got), 'signature verifies with the signing secret');
      assert.ok(!verifySignature(sub.body.token, got), 'and not with the management token');
      assert.ok(!String(got.headers['webhook-signature']).includes(' '), 'one signature while no rotation is in grace');
      const body = JSON.parse(got.body);
      assert.equal(body.trigger, 'address_tx');
      assert.equal(body.blockIndex, 1);
      assert.equal(body.timestamp, c.node.head().timestamp);
      assert.deepEqual(
        { type: body.tx.type, from: body.tx.from, to: body.tx.to, amount: body.tx.amount, hash: body.tx.hash },
        { type: 'TRANSFER', from: DEV_KEYS[1].address, to: STRANGER, amount: '5', hash },
      );
      await sleep(200);
      assert.equal(r.got.length, 1, 'no second delivery');
      const [s] = await listAlerts(c, sub.body.token);
      assert.deepEqual({ delivered: s.delivered, failed: s.failed, pending: s.pending }, { delivered: 1, failed: 0, pending: 0 });
      assert.equal(c.alerts.pendingCount(), 0);
    },
    r,
  );
});

test('a 500 is retried 3 times with the same webhook-id after the given waits, then dropped and recorded', async () => {
  const r = await startReceiver(answer(500));
  await withKit(
    { retryDelaysMs: FAST },
    async (c) => {
      const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      await payAndCommit(c, STRANGER);
      await until(() => c.alerts.pendingCount() === 0 && r.got.length === 4, 60_000, 'four attempts');
      assert.equal(new Set(r.got.map((g) => g.headers['webhook-id'])).size, 1, 'one webhook-id across retries');
      // Never before its wait; how much later is the machine's load, not the schedule (a busy CI
      // machine saw a retry 250 ms late).
      for (let i = 1; i < 4; i++) {
        const gap = r.got[i].at - r.got[i - 1].at;
        assert.ok(gap >= FAST[i - 1] - 5, `retry ${i} came ${gap.toFixed(0)} ms after the previous attempt (wait ${FAST[i - 1]} ms)`);
      }
      for (const g of r.got) assert.ok(verifySignature(sub.body.secret, g), 'every attempt is signed');
      await sleep(300);
      assert.equal(r.got.length, 4, 'dropped: no fifth attempt');
      const [s] = await listAlerts(c, sub.body.token);
      assert.equal(s.failed, 1);
      assert.equal(s.delivered, 0);
      assert.deepEqual(
        { attempts: s.lastFailure.attempts, error: s.lastFailure.error, deliveryId: s.lastFailure.deliveryId },
        { attempts: 4, error: 'HTTP 500', deliveryId: r.got[0].headers['webhook-id'] },
      );
    },
    r,
  );
});

test('an answer later than the deadline is a failure and is retried', async () => {
  const r = await startReceiver((n, _req, res) => {
    if (n === 0) setTimeout(() => res.writeHead(200).end('{}'), 800).unref();
    else res.writeHead(204).end();
  });
  await withKit(
    { retryDelaysMs: FAST, timeoutMs: 250 },
    async (c) => {
      const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      await payAndCommit(c, STRANGER);
      await until(() => r.got.length === 2 && c.alerts.pendingCount() === 0, 60_000, 'retry after timeout');
      const [s] = await listAlerts(c, sub.body.token);
      assert.deepEqual({ delivered: s.delivered, failed: s.failed }, { delivered: 1, failed: 0 });
    },
    r,
  );
});

test('a connection reset is a failure and is retried', async () => {
  const r = await startReceiver((n, req, res) => {
    if (n === 0) req.socket.destroy();
    else res.writeHead(200).end('{}');
  });
  const seen: string[] = [];
  await withKit(
    { retryDelaysMs: FAST },
    async (c) => {
      c.alerts.onAttempt = (_row, result) => seen.push(result.ok ? 'ok' : String(result.error));
      await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      await payAndCommit(c, STRANGER);
      await until(() => seen.length === 2, 60_000, 'two attempts');
      assert.equal(seen[1], 'ok');
      assert.match(seen[0], /socket|ECONNRESET|closed/i);
    },
    r,
  );
});

test('a 3xx is a failure and the redirect is not followed', async () => {
  const elsewhere = await startReceiver(answer(200));
  const r = await startReceiver(answer(302, { location: elsewhere.url }));
  await withKit(
    { retryDelaysMs: FAST },
    async (c) => {
      const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      await payAndCommit(c, STRANGER);
      await until(() => c.alerts.pendingCount() === 0 && r.got.length === 4, 60_000, 'four attempts');
      assert.equal(elsewhere.got.length, 0, 'the redirect target was never called');
      const [s] = await listAlerts(c, sub.body.token);
      assert.equal(s.lastFailure.error, 'HTTP 302 (redirects are not followed)');
    },
    r,
    elsewhere,
  );
});

test('the real schedule: retries start 2, 4 and 8 s after each failed attempt ends', async () => {
  const r = await startReceiver((n, _req, res) => res.writeHead(n < 3 ? 503 : 200).end('{}'));
  await withKit(
    {},
    async (c) => {
      await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      await payAndCommit(c, STRANGER);
      await until(() => r.got.length === 4 && c.alerts.pendingCount() === 0, 60_000, 'four attempts on the real schedule');
      const gaps = [1, 2, 3].map((i) => r.got[i].at - r.got[i - 1].at);
      [2000, 4000, 8000].forEach((d, i) =>
        assert.ok(gaps[i] >= d - 20 && gaps[i] < d + 2000, `retry ${i + 1} after ${gaps[i].toFixed(0)} ms, expected ${d} ms`),
      );
    },
    r,
  );
});

test('restart in the middle of retries: the delivery completes exactly once, with the same webhook-id', async () => {
  const r = await startReceiver((n, _req, res) => res.writeHead(n === 0 ? 500 : 200).end('{}'));
  await withKit(
    { retryDelaysMs: [400, 400, 400] },
    async (c) => {
      const sub = await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      await payAndCommit(c, STRANGER);
      await until(() => r.got.length === 1, 60_000, 'first attempt');
      await sleep(50);
      await c.alerts.stop();
      assert.equal(r.got.length, 1);
      await c.reopenAlerts({ retryDelaysMs: [400, 400, 400] });
      assert.equal(c.alerts.pendingCount(), 1, 'the outbox row survived the restart');
      await until(() => c.alerts.pendingCount() === 0, 60_000, 'delivery after restart');
      await sleep(600);
      assert.equal(r.got.length, 2);
      assert.equal(r.got[1].headers['webhook-id'], r.got[0].headers['webhook-id']);
      const [s] = await listAlerts(c, sub.body.token);
      assert.deepEqual({ delivered: s.delivered, failed: s.failed }, { delivered: 1, failed: 0 });
    },
    r,
  );
});

test('blocks committed while the consumer is down fire once after it restarts, and a further restart repeats nothing', async () => {
  const r = await startReceiver(answer(200));
  await withKit(
    { retryDelaysMs: FAST },
    async (c) => {
      await subscribe(c, { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url });
      await c.alerts.stop();
      await payAndCommit(c, STRANGER);
      await payAndCommit(c, STRANGER);
      assert.equal(r.got.length, 0);
      await c.reopenAlerts();
      assert.equal(c.alerts.height(), 2, 'caught up from its checkpoint');
      // Delivery is at least once: wait until both successes are recorded before the next restart.
      await until(() => r.got.length === 2 && c.alerts.pendingCount() === 0, 60_000, 'two deliveries recorded');
      await c.reopenAlerts();
      await sleep(200);
      assert.equal(r.got.length, 2, 'no trigger repeated');
      assert.deepEqual(
        r.got.map((g) => JSON.parse(g.body).blockIndex),
        [1, 2],
      );
    },
    r,
  );
});

test('e-mail goes through a real SMTP server: the subject names the trigger, the body links the transaction', async () => {
  const smtp = await startSmtp();
  try {
    await withKit({ smtpUrl: smtp.url, retryDelaysMs: FAST, mailFrom: 'Node <alerts@node.test>' }, async (c) => {
      const sub = await subscribe(c, {
        trigger: 'address_tx',
        params: { address: STRANGER },
        channel: 'email',
        target: 'Someone@Example.COM',
      });
      assert.equal(sub.status, 200);
      await confirmByMail(c, smtp.mails);
      const hash = await payAndCommit(c, STRANGER);
      await until(() => smtp.mails.length === 2, 60_000, 'mail');
      const m = smtp.mails[1];
      assert.deepEqual(m.to, ['Someone@example.com']);
      assert.equal(m.from, 'alerts@node.test');
      assert.match(m.raw, /^Subject: \[Ombra\] address_tx: TRANSFER/m);
      const unfolded = m.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      assert.ok(unfolded.includes(`http://node.test/api/chain/tx/${hash}`), 'links the transaction');
      assert.match(m.raw, /X-Chain-Trigger: address_tx/);
      // The relay has the mail a moment before the sender hears its 250 and records the delivery.
      await until(() => c.alerts.pendingCount() === 0, 60_000, 'delivery recorded');
      const [s] = await listAlerts(c, sub.body.token);
      assert.equal(s.delivered, 1);
    });
  } finally {
    await smtp.close();
  }
});

test("miner_block fires for every block, or for one proposer's blocks", async () => {
  const r = await startReceiver(answer(200));
  await withKit(
    { retryDelaysMs: FAST },
    async (c) => {
      const any = await subscribe(c, { trigger: 'miner_block', params: {}, channel: 'webhook', target: `${r.url}?any` });
      const mine = await subscribe(c, {
        trigger: 'miner_block',
        params: { address: DEV_KEYS[0].address.toUpperCase().replace('OX', 'ox') },
        channel: 'webhook',
        target: `${r.url}?mine`,
      });
      await subscribe(c, { trigger: 'miner_block', params: { address: STRANGER }, channel: 'webhook', target: `${r.url}?other` });
      await c.produce(2);
      await until(() => r.got.length === 4, 60_000, 'four deliveries');
      await sleep(100);
      assert.equal(r.got.length, 4);
      const bySub = (id: string) => r.got.filter((g) => g.headers['x-chain-subscription'] === id).map((g) => JSON.parse(g.body));
      assert.equal(bySub(any.body.id).length, 2);
      const b = bySub(mine.body.id).sort((x, y) => x.blockIndex - y.blockIndex);
      assert.equal(b.length, 2);
      const head = c.node.head();
      assert.deepEqual(b[1], {
        trigger: 'miner_block',
        block: { index: 2, hash: head.hash, proposer: DEV_KEYS[0].address, timestamp: head.timestamp, txCount: 0 },
        blockIndex: 2,
        blockHash: head.hash,
        timestamp: head.timestamp,
      });
    },
    r,
  );
});

test('reward and agent_finished fire on TASK_REWARD and AGENT_FINISH transactions by type (synthetic blocks)', async () => {
  const r = await startReceiver(answer(200));
  await withKit(
    { retryDelaysMs: FAST },
    async (c) => {
      const [A, M, V] = [DEV_KEYS[3].address, DEV_KEYS[4].address, DEV_KEYS[5].address];
      const run = 'ab'.repeat(32);
      const subs = {
        anyReward: await subscribe(c, { trigger: 'reward', params: {}, channel: 'webhook', target: r.url }),
        minerReward: await subscribe(c, { trigger: 'reward', params: { address: M }, channel: 'webhook', target: r.url }),
        noReward: await subscribe(c, { trigger: 'reward', params: { address: STRANGER }, channel: 'webhook', target: r.url }),
        requester: await subscribe(c, { trigger: 'agent_finished', params: { address: A }, channel: 'webhook', target: r.url }),
        finisher: await subscribe(c, { trigger: 'agent_finished', params: { address: M }, channel: 'webhook', target: r.url }),
      };
      const block = (index: number, transactions: unknown[]): Block => ({
        index,
        hash: String(index).repeat(64).slice(0, 64),
        previousHash: '0'.repeat(64),
        timestamp: 1_700_000_000_000 + index,
        proposer: DEV_KEYS[0].address,
        txRoot: '0'.repeat(64),
        stateRoot: '0'.repeat(64),
        tokensBurned: '0',
        tokensConsumed: '0',
        transactions: transactions as never,
        attestations: [],
      });
      const rewards = [
        { address: M, amount: '700', reason: 'miner' },
        { address: V, amount: '200', reason: 'validator' },
      ];
      await c.alerts.handleBlock(
        block(1, [
          { type: 'AGENT_REQUEST', from: A, agentRunId: run, hash: 'a1'.repeat(32) },
          { type: 'TASK_REWARD', from: V, taskId: 'task-1', rewards, hash: 'b2'.repeat(32) },
        ]),
      );
      await c.alerts.handleBlock(
        block(2, [{ type: 'AGENT_FINISH', from: M, agentRunId: run, outcome: 'completed', hash: 'c3'.repeat(32) }]),
      );
      await until(() => r.got.length === 4 && c.alerts.pendingCount() === 0, 60_000, 'four deliveries');
      await sleep(100);
      const bodyOf = (s: { body: { id: string } }) =>
        r.got.filter((g) => g.headers['x-chain-subscription'] === s.body.id).map((g) => JSON.parse(g.body));
      assert.deepEqual(
        bodyOf(subs.anyReward).map((b) => b.rewards),
        [rewards],
      );
      assert.deepEqual(
        bodyOf(subs.minerReward).map((b) => b.rewards),
        [[rewards[0]]],
      );
      assert.equal(bodyOf(subs.noReward).length, 0);
      const fin = bodyOf(subs.requester);
      assert.equal(fin.length, 1);
      assert.deepEqual(
        {
          trigger: fin[0].trigger,
          agentRunId: fin[0].agentRunId,
          outcome: fin[0].outcome,
          type: fin[0].tx.type,
          blockIndex: fin[0].blockIndex,
        },
        { trigger: 'agent_finished', agentRunId: run, outcome: 'completed', type: 'AGENT_FINISH', blockIndex: 2 },
      );
      assert.equal(bodyOf(subs.finisher).length, 1);
    },
    r,
  );
});

test('connect-time SSRF guard: a loopback target is refused once private targets are no longer allowed', async () => {
  const r = await startReceiver(answer(200));
  await withKit(
    { retryDelaysMs: [10, 10, 10] },
    async (c) => {
      const byName = await subscribe(c, {
        trigger: 'address_tx',
        params: { address: STRANGER },
        channel: 'webhook',
        target: `http://localhost:${r.port}/hook`,
      });
      const byIp = await subscribe(
        c,
        { trigger: 'address_tx', params: { address: STRANGER }, channel: 'webhook', target: r.url },
        { 'X-Alert-Token': byName.body.token },
      );
      assert.equal(byIp.body.token, byName.body.token, 'a second subscription joins the token it presents');
      await c.reopenAlerts({ allowPrivate: false, retryDelaysMs: [10, 10, 10] });
      let done = 0;
      c.alerts.onAttempt = (row) => {
        if (row.attempts === 4) done++;
      };
      await payAndCommit(c, STRANGER);
      await until(() => done === 2, 60_000, 'both dropped');
      assert.equal(r.got.length, 0, 'the receiver was never reached');
      const subs = await listAlerts(c, byName.body.token);
      for (const s of subs) {
        assert.equal(s.failed, 1);
        assert.match(s.lastFailure.error, /loopback/);
      }
    },
    r,
  );
});
