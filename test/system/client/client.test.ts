/** The typed client against a live node: reads, wallet sends, refusals, live events with resume, the package export. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OmbraApiError, OmbraClient, OmbraUnreachable, Wallet, type BlockEventData, type ChainEvent } from '../../../client/index.ts';
import { devGenesis } from '../../../cli/start/genesisFile.ts';
import { launch, type Launched } from '../../../launch/launch.ts';
import { keyPairFromPrivateKey } from '../../../core/keys.ts';
import { TRANSFER } from '../../../core/tx/transfer.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';
import { errorMessage } from '../../../core/errors.ts';

let node: Launched;
let cleanup: () => void;

before(async () => {
  const tmp = tempDir('ombra-client-');
  cleanup = tmp.cleanup;
  node = await launch({ dataDir: tmp.dir, genesis: devGenesis(200), key: DEV_KEYS[0], dev: true, httpHost: '127.0.0.1', httpPort: 0 });
});

after(async () => {
  await node.stop();
  cleanup();
});

test('reads, a typed send and its confirmation', async () => {
  const client = new OmbraClient(node.url);
  assert.equal((await client.health()).status, 'ok');
  assert.equal((await client.params()).chainId, 'ombra-dev');
  const wallet = new Wallet(client, DEV_KEYS[3]);
  const { tx, answer } = await wallet.send(TRANSFER, { to: DEV_KEYS[4].address, amount: '2500000', fee: '1000' });
  assert.deepEqual(answer, { ok: true, hash: tx.hash });
  // A second send counts the first as pending.
  const second = await wallet.send('TRANSFER', { to: DEV_KEYS[4].address, amount: '1', fee: '1000' });
  assert.equal(second.tx.nonce, tx.nonce + 1);
  const confirmed = await client.waitForConfirmation(second.tx.hash, 20_000, 50);
  assert.equal(confirmed.status, 'confirmed');
  assert.equal((await client.tx(tx.hash))?.status, 'confirmed');
  assert.equal((await client.account(DEV_KEYS[3].address)).nonce, 2);
  const block = await client.block(confirmed.blockIndex);
  assert.ok(block?.transactions.some((x) => x.hash === second.tx.hash));
  assert.equal(await client.tx('00'.repeat(32)), null);
  assert.equal(await client.block(10 ** 9), null);
});

test('refusals carry the node code; an unreachable node is its own error', async () => {
  const client = new OmbraClient(node.url);
  const broke = new Wallet(client, keyPairFromPrivateKey('11'.repeat(32)));
  const err = await broke.send('TRANSFER', { to: DEV_KEYS[1].address, amount: '5', fee: '1000' }).catch((e: unknown) => e);
  assert.ok(err instanceof OmbraApiError);
  assert.deepEqual([(err as OmbraApiError).status, (err as OmbraApiError).code], [400, 'INSUFFICIENT_BALANCE']);
  const bad = await client.search('x'.repeat(200)).catch((e: unknown) => e);
  assert.deepEqual([(bad as OmbraApiError).status, (bad as OmbraApiError).code], [400, 'INVALID_PARAMS']);
  const down = await new OmbraClient('http://127.0.0.1:9').health().catch((e: unknown) => e);
  assert.ok(down instanceof OmbraUnreachable);
  assert.match(errorMessage(down), /cannot reach the node at http:\/\/127\.0\.0\.1:9/);
});

test('a subscription replays from a height, follows live, and resumes after a dropped connection without a gap or a repeat', async () => {
  const client = new OmbraClient(node.url);
  await waitFor(async () => (node.node.head().index >= 3 ? true : undefined));
  const heights: number[] = [];
  const notices: string[] = [];
  const ctl = new AbortController();
  const done = client.subscribe({
    fromHeight: 1,
    signal: ctl.signal,
    backoff: () => 20,
    onNotice: (l) => notices.push(l),
    onEvent: (e: ChainEvent) => {
      if (e.event === 'block') heights.push((e.data as BlockEventData).index);
    },
  });
  const target = node.node.head().index + 2;
  await waitFor(async () => (heights.includes(target) ? true : undefined), 20_000);
  // Drop every HTTP connection: the client reconnects with Last-Event-ID.
  (node.http.node as unknown as { closeAllConnections(): void }).closeAllConnections();
  const after = node.node.head().index + 3;
  await waitFor(async () => (heights.includes(after) ? true : undefined), 20_000);
  ctl.abort();
  assert.equal(await done, 0);
  assert.ok(
    notices.some((l) => l.startsWith('disconnected; reconnecting')),
    notices.join('\n'),
  );
  assert.deepEqual(
    heights,
    heights.map((_, i) => i + 1),
    'every block from height 1, once, in order',
  );
});

test('a resume point the node refuses (400) ends the subscription with 1 and says why', async () => {
  const fakeFetch = (async () =>
    new Response(JSON.stringify({ error: 'resume point 1 is more than 10000 blocks behind', code: 'INVALID_PARAMS' }), {
      status: 400,
    })) as unknown as typeof fetch;
  const notices: string[] = [];
  const client = new OmbraClient({ url: 'http://node.invalid', fetch: fakeFetch });
  assert.equal(await client.subscribe({ fromHeight: 1, onEvent: () => undefined, onNotice: (l) => notices.push(l) }), 1);
  assert.deepEqual(notices, ['refused: 400 INVALID_PARAMS resume point 1 is more than 10000 blocks behind']);
});

test('the package exports the client as ombra-node/client', async () => {
  const mod = await import('ombra-node/client');
  assert.equal(typeof mod.OmbraClient, 'function');
  assert.equal(typeof mod.buildTx, 'function');
  assert.ok(mod.TRANSACTION_TYPES.includes('TRANSFER'));
});
