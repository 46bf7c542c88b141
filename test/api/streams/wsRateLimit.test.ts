/** WebSocket upgrades count against the rate limiter's stream cap like SSE requests do. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { devGenesis } from '../../../cli/genesisFile.ts';
import { launch } from '../../../cli/launch.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';

const t = suite('websocket rate limits');

/** Opens a socket; resolves with it, or with the refused status code. */
function open(url: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

t('a caller past its open-stream cap is refused 429 on upgrade, and a closed socket frees its slot', async () => {
  const tmp = tempDir();
  const node = await launch({
    dataDir: tmp.dir,
    genesis: devGenesis(1000),
    key: DEV_KEYS[0],
    dev: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
    rateLimits: { tiers: { anonymous: { perMinute: 1000, concurrent: 100, streams: 2 } } },
  });
  const url = `${node.url.replace('http', 'ws')}/api/ws`;
  const sockets: WebSocket[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const ws = await open(url);
      assert.ok(ws instanceof WebSocket, `socket ${i} opens`);
      sockets.push(ws as WebSocket);
    }
    assert.is(await open(url), 429);
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

t.run();
