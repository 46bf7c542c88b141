/**
 * A load generator in its own process (so it does not share the server's event loop):
 * `node test/bench/loadgen.ts URL SECONDS [HEADERS_JSON] [CONNECTIONS]` prints the mean requests
 * per second and the p99 latency (ms).
 */
import autocannon from 'autocannon';

const [url, seconds, headers, connections] = process.argv.slice(2);
const r = await autocannon({
  url,
  connections: Number(connections ?? 10),
  duration: Number(seconds),
  headers: headers ? JSON.parse(headers) : {},
});
if (r.non2xx > 0 || r.errors > 0) throw new Error(`load generator saw ${r.non2xx} non-2xx answers and ${r.errors} errors`);
process.stdout.write(`${JSON.stringify({ rps: r.requests.average, p99: r.latency.p99 })}\n`);
