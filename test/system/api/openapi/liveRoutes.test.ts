/**
 * Every operation of the OpenAPI document against a live node holding chain data (tasks, runs,
 * art, image and audio NFTs, chat): each answer's status must be one the document declares for it, and its body
 * must match that answer's schema (JSON) or content type (pages, SVG, streams). Every path
 * parameter is also tried with junk, whose error answer must match the document too. An
 * operation this test cannot fill in fails it, so a new route needs a sample here.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTx, OmbraClient, Wallet } from '../../../../client/index.ts';
import { liveSimulatedNode, type LiveNode } from '../../../helpers/liveNode.ts';
import { schemaChecker } from '../../../helpers/openapiCheck.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';
import { waitFor } from '../../../helpers/nodeProcess.ts';
import { completeState } from '../../../helpers/completeState.ts';

let live: LiveNode;
let doc: any;
let check: ReturnType<typeof schemaChecker>;

before(async () => {
  live = await liveSimulatedNode();
  doc = await (await fetch(`${live.url}/api/openapi.json`)).json();
  check = schemaChecker(doc);
});

after(() => live.stop());

/** Path parameter samples from the chain: by `METHOD path` and name, else by name. */
async function samples(): Promise<Record<string, string>> {
  const s = (await completeState(live.node.node)).records;
  const txs = live.blocks.flatMap((b) => b.transactions);
  const first = <T>(m: Map<string, T>) => [...m.keys()][0];
  const chat = txs.find((x) => x.type === 'CHAT_TURN');
  const miner = [...s.miners.values()][0];
  return {
    index: '1',
    hash: live.blocks[1].hash,
    'GET /api/chain/tx/:hash': txs[0].hash,
    address: miner.address,
    addr: DEV_KEYS[1].address,
    q: txs[0].hash,
    'GET /api/chain/task/:id': first(s.tasks),
    'GET /api/tasks/:id': first(s.tasks),
    'GET /api/miners/:id': miner.id,
    tokenId: first(s.nfts),
    'GET /api/image/:tokenId': first(s.imageNfts),
    'GET /api/image/:tokenId/file': first(s.imageNfts),
    'GET /api/audio/:tokenId': first(s.audioNfts),
    'GET /api/audio/:tokenId/file': first(s.audioNfts),
    'GET /api/image/owner/:address': DEV_KEYS[1].address,
    'GET /api/audio/owner/:address': DEV_KEYS[1].address,
    agentRunId: first(s.runs),
    conversationId: chat!.conversationId as string,
    status: 'completed',
    postId: first(s.posts),
    intentId: first(s.intents),
    blobId: [...s.blobs.values()].find((b) => b.status === 'complete')!.id,
    subscriber: DEV_KEYS[7].address,
    author: DEV_KEYS[8].address,
    // The simulated chain holds no drive: these are answered 404 as documented (test/integration/api/web.test.ts reads real ones).
    siteId: 'no-site',
    releaseId: 'no-release',
    alias: 'no-alias',
    path: 'index.html',
    fileId: 'ab'.repeat(32),
    'GET /docs/:file': 'docs.js',
    'GET /explorer/:file': 'app.ts',
    'GET /explorer/client/:file': 'browser.ts',
    'GET /explorer/core/:file': 'ombraAmount.ts',
    'GET /explorer/vendor/:file': 'eventsource-parser.js',
    // The checkpoint this node offers (built in the background once it started).
    digest: await waitFor(async () => {
      const r = await fetch(`${live.url}/api/checkpoint`);
      return r.status === 200 ? ((await r.json()) as { digest: string }).digest : undefined;
    }),
  };
}

const QUERY: Record<string, string> = { 'GET /api/chain/blocks-full': '?from=0&to=3' };

/** Checks one answer against the operation's declared responses; returns the parsed body. */
async function verify(what: string, op: any, res: Response): Promise<unknown> {
  const declared = op.responses[String(res.status)];
  const text = res.status === 200 && res.headers.get('content-type')?.startsWith('text/event-stream') ? '' : await res.text();
  assert.ok(declared, `${what}: status ${res.status} is not declared (${Object.keys(op.responses)}): ${text.slice(0, 300)}`);
  const [type, media] = Object.entries<any>(declared.content)[0];
  const got = res.headers.get('content-type') ?? '';
  if (type === 'application/json') {
    assert.match(got, /^application\/json/, `${what}: content type ${got}`);
    const body = JSON.parse(text);
    const why = check(media.schema, body);
    assert.equal(why, null, `${what} answered ${res.status} ${text.slice(0, 400)}\n${why}`);
    return body;
  }
  const [major, minor] = type.split('/');
  // `*/*`: the content type is the resource's own (an uploaded blob's).
  if (type !== '*/*') assert.ok(got.startsWith(minor === '*' ? `${major}/` : type), `${what}: content type ${got}, declared ${type}`);
  return text;
}

/** One request, its answer checked; SSE streams are read up to their first event. */
async function call(method: string, path: string, op: any, init: RequestInit = {}): Promise<any> {
  const ctl = new AbortController();
  const res = await fetch(`${live.url}${path}`, { ...init, method, signal: ctl.signal });
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /^(retry|event|id|data):/m, `${path}: an SSE frame`);
    ctl.abort();
  }
  return verify(`${method} ${path}`, op, res);
}

test('every operation answers as documented, and so do its path parameters given junk', async () => {
  const sample = await samples();
  const client = new OmbraClient(live.url);
  const ops: [string, string, any][] = [];
  for (const [p, item] of Object.entries<any>(doc.paths))
    for (const [m, op] of Object.entries<any>(item)) ops.push([m.toUpperCase(), p, op]);
  // Writes first, so the reads of keys and alerts have something to read.
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
  const opOf = (m: string, p: string) => doc.paths[p][m.toLowerCase()];
  const wallet = new Wallet(client, DEV_KEYS[7]);
  await call(
    'POST',
    '/api/chain/tx',
    opOf('POST', '/api/chain/tx'),
    json(await wallet.sign('TRANSFER', { to: DEV_KEYS[8].address, amount: '5', fee: '1000' })),
  );
  const nonce = (await client.account(DEV_KEYS[8].address)).nextNonce;
  const task = buildTx('TASK_SUBMIT', { taskType: 'chat', prompt: 'hello', fee: '20000' }, DEV_KEYS[8], { nonce });
  const submitted = await call('POST', '/api/tasks/submit', opOf('POST', '/api/tasks/submit'), json(task));
  assert.equal(submitted.hash, task.hash);
  const key = await call('POST', '/api/keys/register', opOf('POST', '/api/keys/register'), json({ tier: 1, label: 'walk' }));
  const alert = await call(
    'POST',
    '/api/alerts/subscribe',
    opOf('POST', '/api/alerts/subscribe'),
    json({ trigger: 'miner_block', params: {}, channel: 'webhook', target: 'http://127.0.0.1:9/hook' }),
  );
  const headers: Record<string, Record<string, string>> = {
    '/api/keys/me': { 'X-API-Key': key.key },
    '/api/alerts': { 'X-Alert-Token': alert.token },
  };
  sample['DELETE /api/keys/{id}'] = key.id;
  sample['DELETE /api/alerts/{id}'] = alert.id;
  sample['GET /api/alerts/confirm/{token}'] = 'ab'.repeat(32);
  const owner = { headers: { 'X-Alert-Token': alert.token } };
  const rotated = await call('POST', `/api/alerts/${alert.id}/secret`, opOf('POST', '/api/alerts/{id}/secret'), owner);
  assert.match(rotated.secret, /^whsec_/);
  await call('POST', `/api/alerts/${alert.id}/enable`, opOf('POST', '/api/alerts/{id}/enable'), owner);
  headers['/api/keys/{id}'] = { 'X-API-Key': key.key };
  headers['/api/alerts/{id}'] = { 'X-Alert-Token': alert.token };
  // A junk confirmation link: the documented 404 of the button's POST.
  await call('POST', `/api/alerts/confirm/${'ab'.repeat(32)}`, opOf('POST', '/api/alerts/confirm/{token}'));
  let walked = 1;
  for (const [method, path, op] of [...ops.filter(([m]) => m === 'GET'), ...ops.filter(([m]) => m === 'DELETE')]) {
    const key = `${method} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const fill = (pick: (n: string) => string) => path.replace(/\{([^}]+)\}/g, (_m, n: string) => encodeURIComponent(pick(n)));
    const url = fill((n) => {
      const v = sample[`${method} ${path}`] ?? sample[key] ?? sample[n];
      assert.ok(v !== undefined, `no sample value for ${n} of ${key}: add one to this test`);
      return v;
    });
    const init = { headers: headers[path] ?? {} };
    if (method === 'GET')
      for (const n of names)
        await call(
          method,
          fill((x) => (x === n ? 'zz-junk' : (sample[key] ?? sample[x]))),
          op,
          init,
        );
    await call(method, `${url}${QUERY[key] ?? ''}`, op, init);
    walked++;
  }
  assert.ok(walked + 6 >= ops.length, `${walked} of ${ops.length} operations walked`);
  // The other branch of GET /api/chain/blocks: a range of full blocks.
  await call('GET', '/api/chain/blocks?from=0&to=2', opOf('GET', '/api/chain/blocks'));
});
