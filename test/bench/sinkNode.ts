/**
 * The sink bench's node: `node test/bench/sinkNode.ts DIR` serves the chain in DIR over HTTP (no
 * producer, no rate limits, p2p on a loopback port) and prints `{"url": ...}` once it serves; it
 * runs until killed. A process of its own, so the node's encoding and the sink's folding and
 * COPY do not share one thread.
 */
import { launch } from '../../launch/launch.ts';

const [dir] = process.argv.slice(2);
const launched = await launch({
  dataDir: dir,
  dev: false,
  httpHost: '127.0.0.1',
  httpPort: 0,
  p2p: { host: '127.0.0.1', port: 0 },
  rateLimits: null,
});
process.stdout.write(`${JSON.stringify({ url: launched.url, head: launched.node.head().index })}\n`);
process.on('SIGTERM', () => void launched.stop().then(() => process.exit(0)));
