/**
 * A node's HTTP face in a process of its own, for attacks measured by its RSS: the API on a
 * loopback port (the server, limits and rate limiter `ombra start` runs with), over a test chain
 * whose block log answers ranges of synthetic blocks of `BLOCK_BYTES` each (default 1 MiB; the
 * protocol allows 3 MB of transactions a block) at heights up to 1,000,000, each block new bytes
 * as a LevelDB read makes them. Prints `{url, keys}` (20 tier-1 API keys) on its first stdout line;
 * stops on SIGTERM.
 *
 * `node test/helpers/slowReaderServer.ts [BLOCK_BYTES]`
 */
import { createApp } from '../../api/app.ts';
import { HttpServer } from '../../api/httpServer.ts';
import { RateLimiter } from '../../api/rateLimit.ts';
import { ApiKeyStore } from '../../services/apiKeys.ts';
import { openTestChain, testApiDeps } from './testChain.ts';

const blockBytes = Number(process.argv[2] ?? 1024 * 1024);
const chain = await openTestChain();
const keys = await new ApiKeyStore(chain.node.store).load();
// The 20 free (tier-1, self-service) keys one IP may register.
const free: string[] = [];
for (let i = 0; i < 20; i++) free.push((await keys.create({ tier: 1, label: 'slow readers', createdBy: '127.0.0.1' })).key);
const limiter = new RateLimiter(keys, {});
await limiter.start();
const deps = testApiDeps(chain.node, { keys, limiter });
const q = deps.queries.chain;
const HEIGHT = 1_000_000;
q.height = () => HEIGHT;
/** Block `i`'s stored JSON bytes: fresh ones a block, as the store's iterator reads them. */
function blockBytesAt(i: number): Uint8Array {
  const head = `{"index":${i},"hash":"${i.toString(16).padStart(64, '0')}","transactions":["`;
  const bytes = Buffer.alloc(head.length + blockBytes + 3, 97 + (i % 26));
  bytes.write(head, 0, 'latin1');
  bytes.write('"]}', head.length + blockBytes, 'latin1');
  return bytes;
}
q.blocksJson = async function* (from: number, to: number) {
  for (let i = from; i <= Math.min(to, HEIGHT); i++) yield blockBytesAt(i);
};
const http = new HttpServer(createApp(deps), deps.streams, limiter, { host: '127.0.0.1', port: 0 });
await http.start();
process.stdout.write(`${JSON.stringify({ url: http.url, keys: free })}\n`);
process.once('SIGTERM', async () => {
  await http.stop();
  await limiter.stop();
  await keys.stop();
  await chain.destroy();
  process.exit(0);
});
