/**
 * Reads at framework speed: `GET /api/chain/block/1` and `GET /api/health` from the node's app,
 * beside a bare Hono app on the same @hono/node-server answering the same bytes, 50 keep-alive
 * connections from autocannon in its own process, rounds alternated, medians reported.
 */
import { serve, type ServerType } from '@hono/node-server';
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Hono } from 'hono';
import { createApp } from '../../api/app.ts';
import { Compressor } from '../../api/compression.ts';
import { NodeMetrics } from '../../api/metrics/nodeMetrics.ts';
import { openTestChain, testApiDeps } from '../helpers/testChain.ts';
import { addRow, median, range } from './table.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;
const LOADGEN = fileURLToPath(new URL('./loadgen.ts', import.meta.url));
const run = promisify(execFile);

async function listen(fetchFn: (r: Request) => Response | Promise<Response>): Promise<{ url: string; server: ServerType }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: fetchFn, hostname: '127.0.0.1', port: 0 }, () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    );
  });
}

async function load(url: string, headers: Record<string, string> = {}): Promise<{ rps: number; p99: number }> {
  const { stdout } = await run(process.execPath, [LOADGEN, url, String(SECONDS), JSON.stringify(headers), String(CONNECTIONS)]);
  return JSON.parse(stdout) as { rps: number; p99: number };
}

/** Prints each read's rate and p99 beside the bare server's, and their ratio. */
export async function readsBench(): Promise<void> {
  const chain = await openTestChain();
  try {
    await chain.node.submitTx(chain.transfer(1, chain.genesis.authorities[0], '1'));
    await chain.produce(1);
    // Block 2 holds a dozen transfers: above 1 KB, so it is compressed when asked.
    for (let i = 0; i < 12; i++) await chain.node.submitTx(chain.transfer(1, chain.genesis.authorities[0], String(i + 2)));
    await chain.produce(1);
    // The app as `ombra start` serves it: with the Prometheus HTTP timings (no rate limits, as under --dev).
    const node = await listen(createApp(testApiDeps(chain.node, { metrics: new NodeMetrics() })).fetch);
    // The bare server answers the very bytes the node answers.
    const bodies: Record<string, string> = {};
    // The last: a block above 1 KB asked for compressed, as a browser asks (a hot read, as block 1).
    const COMPRESSED = '/api/chain/block/2';
    const ACCEPT = { 'accept-encoding': 'gzip, deflate, br' };
    for (const path of ['/api/chain/block/1', '/api/health', COMPRESSED]) bodies[path] = await (await fetch(`${node.url}${path}`)).text();
    const bare = new Hono();
    for (const [path, body] of Object.entries(bodies)) bare.get(path, (c) => c.body(body, 200, { 'content-type': 'application/json' }));
    // The baseline compresses the same way (the same Compressor, its cache included).
    const compressor = new Compressor();
    const bareFetch = (r: Request) => {
      const res = bare.fetch(r) as Response;
      return compressor.answer(res, r.method, r.headers.get('accept-encoding'));
    };
    const baseline = await listen(bareFetch);
    try {
      for (const path of Object.keys(bodies)) {
        const headers = path === COMPRESSED ? ACCEPT : {};
        await load(`${baseline.url}${path}`, headers);
        await load(`${node.url}${path}`, headers);
        const b: { rps: number; p99: number }[] = [];
        const n: { rps: number; p99: number }[] = [];
        for (let i = 0; i < ROUNDS; i++) {
          b.push(await load(`${baseline.url}${path}`, headers));
          n.push(await load(`${node.url}${path}`, headers));
        }
        const [br, nr] = [median(b.map((x) => x.rps)), median(n.map((x) => x.rps))];
        const ratios = n.map((x, i) => x.rps / b[i].rps);
        addRow({
          measure: `GET ${path}${path === COMPRESSED ? ' (brotli)' : ''}, ${CONNECTIONS} connections`,
          node: `${nr.toFixed(0)} rps (${range(n.map((x) => x.rps))}), p99 ${median(n.map((x) => x.p99))} ms`,
          baseline: `bare Hono + node-server, same JSON: ${br.toFixed(0)} rps (${range(b.map((x) => x.rps))}), p99 ${median(b.map((x) => x.p99))} ms`,
          ratio: median(ratios),
          atLeast: 0.7,
        });
        console.log(
          `reads: GET ${path}, ${CONNECTIONS} connections: node ${nr.toFixed(0)} req/s (p99 ${median(n.map((x) => x.p99))} ms), bare Hono + node-server ${br.toFixed(0)} req/s (p99 ${median(b.map((x) => x.p99))} ms); ratio ${median(ratios).toFixed(2)} (rounds ${range(ratios, 2)}; goal >= 0.7)`,
        );
      }
    } finally {
      for (const s of [node.server, baseline.server]) await new Promise<void>((r) => s.close(() => r()));
    }
  } finally {
    await chain.destroy();
  }
}
