/**
 * The node's HTTP traffic judged by a third-party validator: a dev node process on the simulated
 * chain, Prism's validation proxy (`prism proxy --errors`) in front of it on the document the node
 * serves, and through the proxy every GET route filled in with its definition's examples (byte
 * routes also asked for a range and revalidated with their ETag) plus a short `ombra simulate`
 * run. Any violation Prism reports, in an answer or in its log, fails the test. Where Prism is not
 * installed the test says so and passes, except under CI, where that is a failure.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Endpoint } from '../../../../api/endpoints/endpoint.ts';
import { ENDPOINTS } from '../../../../api/endpoints/index.ts';
import { openApiPath } from '../../../../api/openapi/document.ts';
import { runCli } from '../../../helpers/cliRun.ts';
import { seedSimulatedChain } from '../../../helpers/liveNode.ts';
import { startNodeProcess, type NodeProcess, waitFor } from '../../../helpers/nodeProcess.ts';
import { prismFault, prismViolations, startPrismProxy, type PrismProxy } from '../../../helpers/prismProxy.ts';
import { patient } from '../../../helpers/patience.ts';
import { tempDir } from '../../../helpers/testChain.ts';

/** A request of the walk: its path and query, and headers. */
interface Ask {
  id: string;
  url: string;
  headers: Record<string, string>;
}

/** The URL of a GET route filled in with its examples (`cursor` left out: a page asks by `offset`). */
function exampleUrl(e: Endpoint): string {
  const path = openApiPath(e.path).replace(/\{([A-Za-z0-9_]+)\}/g, (_m, n: string) => encodeURIComponent(String(e.params?.[n]?.example)));
  const query = Object.entries(e.query ?? {}).filter(([n]) => n !== 'cursor');
  const search = new URLSearchParams(query.map(([n, p]): [string, string] => [n, String(p.example)]));
  return `${path}${search.size ? `?${search}` : ''}`;
}

/**
 * Routes the proxy cannot judge: it reads an answer whole (an event stream never ends) and
 * follows redirects (it would judge the site's page against the redirect's answer). The test
 * asks the node for those directly.
 */
const UNJUDGED = new Set(['getApiChainEvents', 'getApiMempoolEvents', 'getWebAlias']);

/** Files the static routes answer in their other content types (`ok.otherTypes`), so each type is judged too. */
const OTHER_FILES: Record<string, string[]> = {
  getDocsFile: ['/docs/docs.css'],
  getExplorerFile: ['/explorer/explorer.css', '/explorer/favicon.svg'],
  getExplorerVendorFile: ['/explorer/vendor/uPlot.css'],
};

/** Every GET route the proxy can judge, with its examples. */
function exampleAsks(issued: { apiKey: string; alertToken: string; digest: string }): Ask[] {
  const asks: Ask[] = [];
  for (const [id, e] of Object.entries(ENDPOINTS)) {
    if (e.method !== 'GET' || UNJUDGED.has(id)) continue;
    let url = exampleUrl(e);
    // What the node issues at run time rather than holds in the chain.
    if (id === 'getApiCheckpointDigest') url = `/api/checkpoint/${issued.digest}`;
    const headers: Record<string, string> = {};
    if (e.headers?.['X-API-Key']) headers['X-API-Key'] = issued.apiKey;
    if (e.headers?.['X-Alert-Token']) headers['X-Alert-Token'] = issued.alertToken;
    asks.push({ id, url, headers });
    for (const other of OTHER_FILES[id] ?? []) asks.push({ id, url: other, headers });
  }
  return asks;
}

let node: NodeProcess;
let prism: PrismProxy | null;
/** A second proxy on the served document with one answer made impossible (the check that Prism judges). */
let strict: PrismProxy | null;
const data = tempDir('ombra-prism-');

before(async () => {
  await seedSimulatedChain(data.dir);
  // Prism's upstream client reuses idle keep-alive sockets and does not retry: under load it can
  // pick one the node is closing after its 5 s idle limit and report ECONNRESET as a violation
  // (seen once). Closing idle connections is the server's right, so the test keeps them open.
  const keepOpen = ['--http-keepalive-timeout-ms', '600000'];
  node = await startNodeProcess(
    ['--dev', '--data-dir', data.dir, '--block-time-ms', '200', '--log-format', 'json', ...keepOpen],
    {},
    60_000,
  );
  const text = await (await fetch(`${node.url}/api/openapi.json`)).text();
  const file = join(data.dir, 'openapi.json');
  writeFileSync(file, text);
  // GET /api/chain/height must carry `nope`.
  const doc = JSON.parse(text);
  const schema = doc.paths['/api/chain/height'].get.responses['200'].content['application/json'].schema;
  schema.required = [...(schema.required ?? []), 'nope'];
  const broken = join(data.dir, 'openapi-broken.json');
  writeFileSync(broken, JSON.stringify(doc));
  [prism, strict] = await Promise.all([startPrismProxy(file, node.url), startPrismProxy(broken, node.url)]);
});

after(async () => {
  await Promise.all([prism?.stop(), strict?.stop()]);
  node.child.kill('SIGTERM');
  await node.exited;
  data.cleanup();
});

test('every GET route with its examples and a short simulation pass Prism with no violation', async () => {
  assert.ok(prism, 'Prism (@stoplight/prism-cli, a devDependency) is missing: run `npm ci`');
  const via = prism.url;
  const faults: string[] = [];
  const send = async (what: string, path: string, init: RequestInit = {}): Promise<Response> => {
    const res = await fetch(`${via}${path}`, init);
    const fault = await prismFault(res.clone());
    if (fault) faults.push(`${what} ${path}: ${fault.slice(0, 600)}`);
    return res;
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send(`POST`, path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json', ...headers } });
  // What the node issues at run time, asked through the proxy too.
  const key = (await (await post('/api/keys/register', { tier: 1, label: 'prism' })).json()) as { key: string };
  const alert = (await (
    await post('/api/alerts/subscribe', { trigger: 'miner_block', params: {}, channel: 'webhook', target: 'http://127.0.0.1:9/hook' })
  ).json()) as { token: string };
  const { digest } = (await (await send('GET', '/api/checkpoint')).json()) as { digest: string };
  const wrong: string[] = [];
  const expect = (res: Response, status: number, what: string) => {
    if (res.status !== status) wrong.push(`${what}: ${res.status}, not ${status}`);
  };
  // The simulation runs meanwhile, through the same proxy.
  // 5 s sent nothing beside two CPU burners (its first requests, judged by Prism, took them all):
  // the run is stretched by the run's patience like every wait.
  const seconds = String(patient(5_000) / 1000);
  const simulation = runCli(['simulate', '--url', via, '--seconds', seconds, '--seed', '42', '--json'], { timeoutMs: patient(60_000) });
  let walked = 0;
  const typesSeen = new Map<string, Set<string>>();
  const walk = async (ask: Ask) => {
    const res = await send(ask.id, ask.url, { headers: ask.headers });
    const etag = res.headers.get('etag');
    await res.arrayBuffer();
    walked++;
    typesSeen.set(ask.id, (typesSeen.get(ask.id) ?? new Set()).add((res.headers.get('content-type') ?? '').split(';')[0]));
    if (!ENDPOINTS[ask.id].headers?.Range) return;
    // The byte routes: a range (206) and a revalidation with the ETag just answered (304).
    expect(res, 200, `${ask.id} ${ask.url}`);
    const part = await send(`${ask.id} range`, ask.url, { headers: { Range: 'bytes=0-9' } });
    await part.arrayBuffer();
    expect(part, 206, `${ask.id} ${ask.url} with a range`);
    const same = await send(`${ask.id} revalidated`, ask.url, { headers: { 'If-None-Match': etag ?? '' } });
    await same.arrayBuffer();
    expect(same, 304, `${ask.id} ${ask.url} with its ETag`);
  };
  // Four at a time: the proxy and the node each have a core's worth of work meanwhile.
  const queue = exampleAsks({ apiKey: key.key, alertToken: alert.token, digest });
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let ask = queue.shift(); ask; ask = queue.shift()) await walk(ask);
    }),
  );
  assert.ok(walked > 80, `${walked} GET routes walked`);
  for (const [id, e] of Object.entries(ENDPOINTS))
    if (e.ok.otherTypes)
      assert.deepEqual(
        [...(typesSeen.get(id) ?? [])].sort(),
        [e.ok.contentType, ...e.ok.otherTypes].sort(),
        `${id}: every content type asked`,
      );
  const sim = await simulation;
  assert.equal(sim.code, 0, sim.stderr);
  const summary = JSON.parse(sim.stdout);
  const sent = Object.values<number>(summary.sent).reduce((a, b) => a + b, 0);
  // How many fit in its 5 s depends on the machine; that they went through the proxy is what counts.
  assert.ok(sent > 0, `the simulation sent ${sent} transactions`);
  const logged = prismViolations(await prism.settledLog());
  assert.deepEqual(
    [...faults, ...logged, ...wrong],
    [],
    `${faults.length} answers with violations, ${logged.length} lines of Prism's log, ${wrong.length} wrong statuses`,
  );
  assert.deepEqual(summary.refused, {}, `refused through the proxy: ${JSON.stringify(summary.notes)}`);
});

test('the routes the proxy cannot judge answer the node directly as documented', async () => {
  for (const id of UNJUDGED) assert.ok(ENDPOINTS[id]?.method === 'GET', `${id} is a GET route`);
  const alias = String(ENDPOINTS.getWebAlias.params?.alias?.example);
  const redirect = await fetch(`${node.url}/web/${alias}`, { redirect: 'manual' });
  assert.equal(redirect.status, 301);
  assert.equal(new URL(redirect.headers.get('location') ?? '', node.url).pathname, `/web/${alias}/`);
  for (const path of ['/api/chain/events', '/api/mempool/events']) {
    const ctl = new AbortController();
    const res = await fetch(`${node.url}${path}`, { signal: ctl.signal });
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/, path);
    ctl.abort();
  }
});

test('the proxy does judge: an answer its document does not allow is a violation, in the answer and in the log', async () => {
  assert.ok(strict, 'Prism (@stoplight/prism-cli, a devDependency) is missing: run `npm ci`');
  const fault = await prismFault(await fetch(`${strict.url}/api/chain/height`));
  assert.match(fault ?? '', /nope/);
  const log = strict.log;
  await waitFor(async () => (prismViolations(log()).some((l) => /VIOLATIONS|Violation:/.test(l)) ? true : undefined));
});
