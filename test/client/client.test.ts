/** The typed client against a live node: reads, wallet sends, refusals, live events with resume, the package export. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OmbraApiError, OmbraClient, OmbraUnreachable, Wallet, type BlockEventData, type ChainEvent } from '../../client/index.ts';
import { devGenesis } from '../../cli/start/genesisFile.ts';
import { launch, type Launched } from '../../launch/launch.ts';
import { keyPairFromPrivateKey } from '../../core/keys.ts';
import { TRANSFER } from '../../core/tx/transfer.ts';
import { waitFor } from '../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';

const t = suite('the client');
let node: Launched;
let cleanup: () => void;

t.before(async () => {
  const tmp = tempDir('ombra-client-');
  cleanup = tmp.cleanup;
  node = await launch({ dataDir: tmp.dir, genesis: devGenesis(200), key: DEV_KEYS[0], dev: true, httpHost: '127.0.0.1', httpPort: 0 });
});

t.after(async () => {
  await node.stop();
  cleanup();
});

t('reads, a typed send and its confirmation', async () => {
  const client = new OmbraClient(node.url);
  assert.is((await client.health()).status, 'ok');
  assert.is((await client.params()).chainId, 'ombra-dev');
  const wallet = new Wallet(client, DEV_KEYS[3]);
  const { tx, answer } = await wallet.send(TRANSFER, { to: DEV_KEYS[4].address, amount: '2500000', fee: '1000' });
  assert.equal(answer, { ok: true, hash: tx.hash });
  // A second send counts the first as pending.
  const second = await wallet.send('TRANSFER', { to: DEV_KEYS[4].address, amount: '1', fee: '1000' });
  assert.is(second.tx.nonce, tx.nonce + 1);
  const confirmed = await client.waitForConfirmation(second.tx.hash, 20_000, 50);
  assert.is(confirmed.status, 'confirmed');
  assert.is((await client.tx(tx.hash))?.status, 'confirmed');
  assert.is((await client.account(DEV_KEYS[3].address)).nonce, 2);
  const block = await client.block(confirmed.blockIndex);
  assert.ok(block?.transactions.some((x) => x.hash === second.tx.hash));
  assert.is(await client.tx('00'.repeat(32)), null);
  assert.is(await client.block(10 ** 9), null);
});

t('refusals carry the node code; an unreachable node is its own error', async () => {
  const client = new OmbraClient(node.url);
  const broke = new Wallet(client, keyPairFromPrivateKey('11'.repeat(32)));
  const err = await broke.send('TRANSFER', { to: DEV_KEYS[1].address, amount: '5', fee: '1000' }).catch((e: unknown) => e);
  assert.instance(err, OmbraApiError);
  assert.equal([(err as OmbraApiError).status, (err as OmbraApiError).code], [400, 'INSUFFICIENT_BALANCE']);
  const bad = await client.search('x'.repeat(200)).catch((e: unknown) => e);
  assert.equal([(bad as OmbraApiError).status, (bad as OmbraApiError).code], [400, 'INVALID_PARAMS']);
  const down = await new OmbraClient('http://127.0.0.1:9').health().catch((e: unknown) => e);
  assert.instance(down, OmbraUnreachable);
  assert.match((down as Error).message, /cannot reach the node at http:\/\/127\.0\.0\.1:9/);
});

t('a subscription replays from a height, follows live, and resumes after a dropped connection without a gap or a repeat', async () => {
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
  assert.is(await done, 0);
  assert.ok(
    notices.some((l) => l.startsWith('disconnected; reconnecting')),
    notices.join('\n'),
  );
  assert.equal(
    heights,
    heights.map((_, i) => i + 1),
    'every block from height 1, once, in order',
  );
});

t('a resume point the node refuses (400) ends the subscription with 1 and says why', async () => {
  const fakeFetch = (async () =>
    new Response(JSON.stringify({ error: 'resume point 1 is more than 10000 blocks behind', code: 'INVALID_PARAMS' }), {
      status: 400,
    })) as unknown as typeof fetch;
  const notices: string[] = [];
  const client = new OmbraClient({ url: 'http://node.invalid', fetch: fakeFetch });
  assert.is(await client.subscribe({ fromHeight: 1, onEvent: () => undefined, onNotice: (l) => notices.push(l) }), 1);
  assert.equal(notices, ['refused: 400 INVALID_PARAMS resume point 1 is more than 10000 blocks behind']);
});

t('the package exports the client as ombra-node/client', async () => {
  const mod = await import('ombra-node/client');
  assert.type(mod.OmbraClient, 'function');
  assert.type(mod.buildTx, 'function');
  assert.ok(mod.TRANSACTION_TYPES.includes('TRANSFER'));
});

t.run();
