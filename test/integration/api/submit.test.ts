/**
 * What a submission's answer promises on a network node (api/submit.ts): a 200 means a peer hears
 * the transaction, so a node no peer would hear refuses it with 503 NO_PEERS and keeps nothing (a
 * --dev node, whose one authority produces alone, still answers 200); and a node behind its peers
 * by a block, or syncing, answers a nonce ahead of its state 503 SYNCING (go elsewhere), not 422 NONCE_GAP.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noNetwork, type NetworkView } from '../../../api/context.ts';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS, type TestChain } from '../../helpers/testChain.ts';
import { assertError, nextNonce, postTx, snapshot, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;

/** A network view whose peers and heads a test sets. */
function fakeNetwork(): NetworkView & { recipients: number; best: number | null } {
  const view = {
    ...noNetwork,
    recipients: 0,
    best: null as number | null,
    txRecipients: () => view.recipients,
    networkHeight: () => view.best,
  };
  return view;
}

/** A transfer from dev key `i` with nonce `nonce` (its next one by default). */
const transfer = (c: TestChain, i: number, nonce = nextNonce(c, i)) =>
  signTx({ type: 'TRANSFER', from: A(i), to: A(2), amount: '5', fee: '1000', nonce, timestamp: c.now() }, DEV_KEYS[i]);

test('no peer to gossip to: 503 NO_PEERS, nothing kept (mempool and state unchanged); with a peer: 200 and kept', async () => {
  const net = fakeNetwork();
  await withChain(
    async (c) => {
      const tx = transfer(c, 1);
      const before = snapshot(c);
      assertError(await postTx(c, tx), 503, 'NO_PEERS', /no peer/);
      assert.deepEqual(snapshot(c), before, 'a refused transaction changes nothing');
      assert.equal(c.node.mempool.has(tx.hash), false);
      // Bad input is still bad input first.
      assertError(await postTx(c, '{'), 400, 'INVALID_JSON');
      net.recipients = 1;
      const res = await postTx(c, tx);
      assert.deepEqual({ status: res.status, body: res.body }, { status: 200, body: { ok: true, hash: tx.hash } });
      assert.ok(c.node.mempool.has(tx.hash));
    },
    { network: net, api: { requirePeers: true } },
  );
});

test('a --dev node (requirePeers off) answers 200 with no peer at all', () =>
  withChain(
    async (c) => {
      const tx = transfer(c, 1);
      const res = await postTx(c, tx);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(c.node.mempool.has(tx.hash));
    },
    { network: fakeNetwork() },
  ));

test('behind its peers by a single block, a nonce ahead is 503 SYNCING with Retry-After; in step, it is 422 NONCE_GAP', async () => {
  const net = fakeNetwork();
  await withChain(
    async (c) => {
      const ahead = transfer(c, 1, nextNonce(c, 1) + 1);
      assertError(await postTx(c, ahead), 422, 'NONCE_GAP');
      net.best = c.node.head().index;
      assertError(await postTx(c, ahead), 422, 'NONCE_GAP', /nonce gap/);
      // One block behind is enough: the nonce before this one may be in it (well inside maxLagBlocks).
      net.best = c.node.head().index + 1;
      const before = snapshot(c);
      const refused = await postTx(c, ahead);
      assertError(refused, 503, 'SYNCING', /behind/);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.deepEqual(snapshot(c), before, 'nothing admitted');
      // Only the nonce gap is the lag's to explain: other refusals stand, and a good transaction is taken.
      const next = transfer(c, 1);
      assert.equal((await postTx(c, next)).status, 200);
      assertError(await postTx(c, next), 409, 'DUPLICATE_TX');
    },
    { network: net, api: { maxLagBlocks: 3 } },
  );
});

test('a node syncing with a peer, or with a new peer not yet heard, answers a nonce ahead 503 SYNCING', async () => {
  const net = { ...fakeNetwork(), behind: () => true };
  await withChain(
    async (c) => {
      const ahead = transfer(c, 1, nextNonce(c, 1) + 1);
      assertError(await postTx(c, ahead), 503, 'SYNCING', /behind/);
      net.behind = () => false;
      assertError(await postTx(c, ahead), 422, 'NONCE_GAP');
    },
    { network: net },
  );
});
