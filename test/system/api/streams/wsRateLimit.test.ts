/** WebSocket upgrades go through the rate limiter like SSE requests: stream cap, headers, bans. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { devGenesis } from '../../../../cli/start/genesisFile.ts';
import { launch } from '../../../../launch/launch.ts';
import { waitFor } from '../../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../../helpers/testChain.ts';

/** The upgrade's answer: its status and headers (the socket is closed at once). */
function upgrade(url: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('upgrade', (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      ws.once('open', () => ws.close());
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.resume();
    });
    ws.once('error', reject);
  });
}

/** Opens a socket; resolves with it, or with the refused status code. */
function open(url: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

/** A dev node on loopback over `dir` with these rate limits (null: off, the --dev default). */
const launchDev = (dir: string, rateLimits: Parameters<typeof launch>[0]['rateLimits'], key?: (typeof DEV_KEYS)[0]) =>
  launch({ dataDir: dir, genesis: devGenesis(1000), ...(key ? { key } : {}), dev: true, httpHost: '127.0.0.1', httpPort: 0, rateLimits });

test('a caller past its open-stream cap is refused 429 on upgrade, and a closed socket frees its slot', async () => {
  const tmp = tempDir();
  const node = await launchDev(tmp.dir, { tiers: { anonymous: { perMinute: 1000, concurrent: 100, streams: 2 } } }, DEV_KEYS[0]);
  const url = `${node.url.replace('http', 'ws')}/api/ws`;
  const sockets: WebSocket[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const ws = await open(url);
      assert.ok(ws instanceof WebSocket, `socket ${i} opens`);
      sockets.push(ws as WebSocket);
    }
    assert.equal(await open(url), 429);
    sockets.shift()!.close();
    const again = await waitFor(async () => {
      const ws = await open(url);
      return ws instanceof WebSocket ? ws : undefined;
    }, 5000);
    sockets.push(again);
  } finally {
    for (const s of sockets) s.terminate();
    await node.stop();
    tmp.cleanup();
  }
});

test('the 101 upgrade answer carries X-RateLimit-Limit, -Remaining and -Reset, and so does a 429 refusal', async () => {
  const tmp = tempDir();
  const node = await launchDev(tmp.dir, { tiers: { anonymous: { perMinute: 3, concurrent: 100, streams: 100 } } });
  const url = `${node.url.replace('http', 'ws')}/api/ws`;
  try {
    const first = await upgrade(url);
    assert.equal(first.status, 101);
    assert.equal(first.headers['x-ratelimit-limit'], '3');
    assert.equal(first.headers['x-ratelimit-remaining'], '2');
    assert.match(String(first.headers['x-ratelimit-reset']), /^[0-9]{10}$/);
    assert.equal((await upgrade(url)).headers['x-ratelimit-remaining'], '1');
    await upgrade(url);
    const refused = await upgrade(url);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});

test('with limits off (the --dev default) banned-ips.txt still bans: HTTP and WebSocket answer 403 IP_BANNED', async () => {
  const tmp = tempDir();
  writeFileSync(join(tmp.dir, 'banned-ips.txt'), '127.0.0.0/8\n::1\n');
  const node = await launchDev(tmp.dir, null);
  try {
    const r = await fetch(`${node.url}/api/health`);
    assert.equal(r.status, 403);
    assert.equal(((await r.json()) as { code: string }).code, 'IP_BANNED');
    assert.equal(r.headers.get('x-ratelimit-limit'), null, 'no limits, no quota headers');
    assert.equal((await upgrade(`${node.url.replace('http', 'ws')}/api/ws`)).status, 403);
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});
