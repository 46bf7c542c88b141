/**
 * Rate limiter overhead: GET /api/chain/height (a cached read) over keep-alive HTTP on loopback,
 * with and without the limiter, alternated in the same run; autocannon generates the load from
 * its own process.
 * Also: webhook delivery latency and throughput through the outbox to a loopback receiver.
 */
import { serve, type ServerType } from '@hono/node-server';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../api/app.ts';
import { RateLimiter } from '../../api/rateLimit.ts';
import { ApiKeyStore } from '../../services/apiKeys.ts';
import { AlertService } from '../../services/alerts/alertService.ts';
import { answer, startReceiver, until } from '../helpers/alertKit.ts';
import { openTestChain, testApiDeps } from '../helpers/testChain.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);

async function listen(fetchFn: (r: Request) => Response | Promise<Response>): Promise<{ url: string; server: ServerType }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: fetchFn, hostname: '127.0.0.1', port: 0 }, () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    );
  });
}

const LOADGEN = fileURLToPath(new URL('./loadgen.ts', import.meta.url));

/** Requests per second from a load generator in its own process (one core for it, one for the server). */
async function rps(url: string, headers: Record<string, string> = {}): Promise<number> {
  const { stdout } = await run(process.execPath, [LOADGEN, `${url}/api/chain/height`, String(SECONDS), JSON.stringify(headers)]);
  return (JSON.parse(stdout) as { rps: number }).rps;
}

const run = promisify(execFile);

export async function rateLimitBench(): Promise<void> {
  const chain = await openTestChain();
  const keys = await new ApiKeyStore(chain.node.store).load();
  const key = (await keys.create({ tier: 2, label: 'bench', createdBy: 'operator' })).key;
  // Quotas far above what the run sends: the limiter does all its work and never refuses.
  const huge = { perMinute: 1e12, concurrent: 1e6, streams: 1e6 };
  const limiter = new RateLimiter(keys, { tiers: { anonymous: huge, '1': huge, '2': huge } });
  const plain = await listen(createApp(testApiDeps(chain.node, { keys })).fetch);
  const limited = await listen(createApp(testApiDeps(chain.node, { keys, limiter })).fetch);
  try {
    // Warm both servers (JIT, key cache) before anything is measured.
    await rps(plain.url);
    await rps(limited.url);
    await rps(limited.url, { 'X-API-Key': key });
    const base: number[] = [];
    const anon: number[] = [];
    const keyed: number[] = [];
    const baseKeyed: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      base.push(await rps(plain.url));
      // The same request with the header, to a server that ignores it: the keyed baseline.
      baseKeyed.push(await rps(plain.url, { 'X-API-Key': key }));
      anon.push(await rps(limited.url));
      keyed.push(await rps(limited.url, { 'X-API-Key': key }));
    }
    // Medians: one round hit by the noisy neighbours of a 2-core machine must not decide the figure.
    const avg = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
    const b = avg(base);
    console.log(
      `ratelimit baseline: GET /api/chain/height without limiter: median ${b.toFixed(0)} req/s (runs: ${base.map((x) => x.toFixed(0)).join(', ')})`,
    );
    console.log(
      `ratelimit baseline: the same with an X-API-Key header the server ignores: median ${avg(baseKeyed).toFixed(0)} req/s (runs: ${baseKeyed.map((x) => x.toFixed(0)).join(', ')})`,
    );
    for (const [name, runs, bl] of [
      ['anonymous (by IP)', anon, b],
      ['with X-API-Key', keyed, avg(baseKeyed)],
    ] as const) {
      const v = avg(runs);
      const b = bl;
      console.log(
        `ratelimit: with limiter, ${name}: median ${v.toFixed(0)} req/s (runs: ${runs.map((x) => x.toFixed(0)).join(', ')}); ratio ${(v / b).toFixed(3)}, overhead ${((1 - v / b) * 100).toFixed(1)}%`,
      );
    }
  } finally {
    for (const s of [plain.server, limited.server]) await new Promise<void>((r) => s.close(() => r()));
    await limiter.stop();
    await keys.stop();
    await chain.destroy();
  }
}

export async function deliveryBench(n = 500): Promise<void> {
  const chain = await openTestChain();
  const r = await startReceiver(answer(200));
  // The bench commits its blocks as fast as it can, far faster than a chain's block time, so the
  // per-subscription bound on waiting deliveries (100 by default: a subscriber that far behind has
  // its new deliveries dropped and logged) is lifted to measure the delivery path itself.
  const alerts = new AlertService(chain.node.alertPorts(), { allowPrivate: true, maxPendingPerSub: n });
  await alerts.start();
  try {
    const sub = await alerts.subscribe({ trigger: 'miner_block', params: {}, channel: 'webhook', target: r.url }, '127.0.0.1');
    void sub;
    const committed: number[] = [];
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      await chain.produce();
      committed.push(performance.now());
    }
    await until(() => r.got.length === n, 60_000, 'deliveries');
    const seconds = (performance.now() - start) / 1000;
    const lat = r.got.map((g) => g.at - committed[JSON.parse(g.body).blockIndex - 1]).sort((a, b) => a - b);
    console.log(
      `alerts: ${n} miner_block webhooks (one per committed block) in ${seconds.toFixed(2)} s = ${(n / seconds).toFixed(0)} deliveries/s; block commit -> receiver latency p50 ${lat[Math.floor(n / 2)].toFixed(1)} ms, p99 ${lat[Math.floor(n * 0.99)].toFixed(1)} ms`,
    );
  } finally {
    await alerts.stop();
    await r.close();
    await chain.destroy();
  }
}
