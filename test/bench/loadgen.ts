/**
 * A load generator in its own process (so it does not share the server's event loop):
 * `node test/bench/loadgen.ts URL SECONDS [HEADERS_JSON]` prints the mean requests per second.
 */
import autocannon from 'autocannon';

const [url, seconds, headers] = process.argv.slice(2);
const r = await autocannon({ url, connections: 10, duration: Number(seconds), headers: headers ? JSON.parse(headers) : {} });
if (r.non2xx > 0 || r.errors > 0) throw new Error(`load generator saw ${r.non2xx} non-2xx answers and ${r.errors} errors`);
process.stdout.write(`${JSON.stringify({ rps: r.requests.average })}\n`);
