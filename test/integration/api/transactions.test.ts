/** POST /api/chain/tx (both request forms, every refusal of docs/protocol.md's validation order) and GET /api/chain/tx/:hash. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import { signMessage } from '../../../core/keys.ts';
import { addressFromPublicKey } from '../../../core/address.ts';
import { signTx, txHash } from '../../../core/txCodec.ts';
import { DEV_KEYS, fixtureGenesis, type TestChain } from '../../helpers/testChain.ts';
import { noNetwork } from '../../../api/context.ts';
import {
  assertError,
  assertKeys,
  DEV_ALLOCATION,
  get,
  nextNonce,
  postTx,
  snapshot,
  STRANGER,
  withChain,
  type Answer,
} from '../../helpers/apiSupport.ts';

const MiB = 1024 * 1024;
const A = (i: number) => DEV_KEYS[i].address;

/** Posts `body`, expects the refusal, and checks nothing in the node changed. */
async function refused(chain: TestChain, body: unknown, status: number, code: string, message?: string | RegExp): Promise<Answer> {
  const before = snapshot(chain);
  const res = await postTx(chain, body);
  assertError(res, status, code, message);
  assert.deepEqual(snapshot(chain), before, `state changed after a refused ${code}`);
  return res;
}

/** Posts `body` and expects it admitted with exactly `{ok: true, hash}`. */
async function admitted(chain: TestChain, tx: Record<string, unknown>): Promise<void> {
  const size = chain.node.mempool.size;
  const res = await postTx(chain, tx);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, { ok: true, hash: tx.hash });
  assert.equal(chain.node.mempool.size, size + 1);
}

/** A signed transaction of any type from dev key `i` with its next nonce. */
function signed(chain: TestChain, i: number, fields: Record<string, unknown>, nonce = nextNonce(chain, i)): Record<string, unknown> {
  const { type, ...rest } = fields;
  return signTx({ type: type as string, from: A(i), ...rest, nonce, timestamp: chain.now() }, DEV_KEYS[i]);
}

/** An AGENT_REQUEST (fork 6) with its fields in canonical order (docs/protocol.md). */
function agentRequest(chain: TestChain, i: number): Record<string, unknown> {
  const nonce = nextNonce(chain, i);
  const prompt = 'Summarise the last ten blocks.';
  return signTx(
    {
      type: 'AGENT_REQUEST',
      from: A(i),
      agentRunId: sha256Hex(A(i) + nonce + prompt.slice(0, 256)),
      conversationId: sha256Hex('conversation-1'),
      prompt,
      toolsWhitelist: ['search', 'chain.read'],
      maxFee: '100000',
      maxSteps: 5,
      nonce,
      timestamp: chain.now(),
    },
    DEV_KEYS[i],
  );
}

/** The older form of a signed tx: `{tx: {...without hash and signature}, signature}`. */
function legacy(tx: Record<string, unknown>): { tx: Record<string, unknown>; signature: unknown } {
  const { hash: _h, signature, ...rest } = tx;
  return { tx: rest, signature };
}

/** Flips one byte of a hex string (keeps it lowercase hex of the same length). */
function flipHex(hex: string, at = 0): string {
  const b = Buffer.from(hex, 'hex');
  b[at] ^= 0x01;
  return b.toString('hex');
}

test('a signed transfer is admitted and answers exactly {ok: true, hash}', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5_000_000n);
    await admitted(c, tx);
    assert.deepEqual(c.node.mempool.get(tx.hash as string), tx);
    assert.equal(c.node.mempool.pending(A(1)).balance, 5_001_000n);
  }));

test('the older {tx, signature} form is admitted and answers {ok: true, hash, txHash} with the recomputed hash', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 7n);
    const res = await postTx(c, legacy(tx));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { ok: true, hash: tx.hash, txHash: tx.hash });
    assert.deepEqual(c.node.mempool.get(tx.hash as string), tx);
  }));

test('a body that is not JSON is 400 INVALID_JSON', () =>
  withChain(async (c) => {
    for (const body of ['', '{', 'not json', "{'type':'TRANSFER'}", '[1,]', '{"a":1}}', 'undefined', 'NaN']) {
      await refused(c, body, 400, 'INVALID_JSON');
    }
  }));

test('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE while a transaction padded to exactly 1 MiB is read', () =>
  withChain(async (c) => {
    const ok = JSON.stringify(c.transfer(1, A(2), 1n));
    const res = await postTx(c, ok + ' '.repeat(MiB - ok.length));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const next = JSON.stringify(c.transfer(1, A(2), 2n));
    await refused(c, next + ' '.repeat(MiB - next.length + 1), 413, 'PAYLOAD_TOO_LARGE');
    // The size limit comes before parsing: a huge non-JSON body is 413, not 400.
    await refused(c, 'x'.repeat(2 * MiB), 413, 'PAYLOAD_TOO_LARGE');
    assert.equal(c.node.mempool.size, 1);
  }));

test('a body that is JSON but not a transaction object is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    for (const body of ['null', '[]', '0', '"TRANSFER"', 'true', '{}', '[{"type":"TRANSFER"}]'])
      await refused(c, body, 400, 'INVALID_PARAMS');
  }));

test('every missing field of a TRANSFER is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    for (const k of Object.keys(tx)) {
      const { [k]: _drop, ...rest } = tx;
      await refused(c, rest, 400, 'INVALID_PARAMS');
    }
  }));

test('ill-typed fields, an unknown field and an unknown type are 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    const bad: Record<string, unknown>[] = [
      { amount: 5 },
      { amount: '-5' },
      { amount: '1e99' },
      { amount: '05' },
      { amount: '5.0' },
      { amount: '9'.repeat(79) },
      { amount: '' },
      { fee: 1000 },
      { fee: null },
      { nonce: '0' },
      { nonce: -1 },
      { nonce: 0.5 },
      { nonce: 1e99 },
      { timestamp: String(tx.timestamp) },
      { to: 'ox1234' },
      { to: 'x'.repeat(10_000) },
      { to: null },
      { from: 'not-an-address' },
      { publicKey: (tx.publicKey as string).toUpperCase() },
      { publicKey: (tx.publicKey as string).slice(2) },
      { hash: 'z'.repeat(64) },
      { signature: (tx.signature as string).slice(0, 126) },
      { signature: 12345 },
      { memo: 'hello' },
      { tx: {} },
      { type: 'TRANSFERX' },
      { type: 'transfer' },
      { type: 7 },
      { type: 'x'.repeat(10_000) },
    ];
    for (const patch of bad) await refused(c, { ...tx, ...patch }, 400, 'INVALID_PARAMS');
    // A field of another type is unknown here.
    await refused(c, { ...tx, bytes: '10' }, 400, 'INVALID_PARAMS');
  }));

test('a malformed older form is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    const { tx: inner, signature } = legacy(tx);
    const bad: unknown[] = [
      { tx: inner },
      { tx: inner, signature: 5 },
      { tx: inner, signature, extra: 1 },
      { tx: 'TRANSFER', signature },
      { tx: null, signature },
      { tx: [inner], signature },
      { tx: { ...inner, hash: tx.hash }, signature },
      { tx: { ...inner, signature }, signature },
      { tx: { ...inner, type: 'NOPE' }, signature },
      { tx: { ...inner, type: undefined }, signature },
      { tx: { ...inner, publicKey: undefined }, signature },
      { tx: { ...inner, amount: 5 }, signature },
      { tx: inner, signature: 'ab' },
    ];
    for (const body of bad) await refused(c, body, 400, 'INVALID_PARAMS');
  }));

test('a type whose fork is not active at the next height is 403 FORK_NOT_ACTIVE, ahead of the hash check', () =>
  withChain(
    async (c) => {
      const tx = agentRequest(c, 1);
      await refused(c, tx, 403, 'FORK_NOT_ACTIVE', /^fork not active/);
      // Fork precedes hash: a tampered AGENT_REQUEST still answers FORK_NOT_ACTIVE.
      await refused(c, { ...tx, prompt: 'tampered' }, 403, 'FORK_NOT_ACTIVE');
      await refused(c, legacy(tx), 403, 'FORK_NOT_ACTIVE');
      // Shape precedes fork: an ill-formed AGENT_REQUEST is INVALID_PARAMS.
      await refused(c, { ...tx, maxSteps: 0 }, 400, 'INVALID_PARAMS');
      // Fork 1 types are fine on the same chain.
      await admitted(c, c.transfer(1, A(2), 5n));
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));

test('with every fork active the same AGENT_REQUEST passes the fork check and is accepted', () =>
  withChain(async (c) => {
    const tx = agentRequest(c, 1);
    const res = await c.app.request('/api/chain/tx', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tx),
    });
    assert.deepEqual([res.status, await res.json()], [200, { ok: true, hash: tx.hash }]);
  }));

test('a field changed after signing is 400 HASH_MISMATCH, ahead of the sender and signature checks', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    await refused(c, { ...tx, amount: '6' }, 400, 'HASH_MISMATCH', /^hash mismatch/);
    await refused(c, { ...tx, fee: '1' }, 400, 'HASH_MISMATCH');
    await refused(c, { ...tx, nonce: 1 }, 400, 'HASH_MISMATCH');
    await refused(c, { ...tx, to: A(3) }, 400, 'HASH_MISMATCH');
    await refused(c, { ...tx, timestamp: (tx.timestamp as number) + 1 }, 400, 'HASH_MISMATCH');
    await refused(c, { ...tx, hash: flipHex(tx.hash as string) }, 400, 'HASH_MISMATCH');
    // from changed: the hash no longer matches, and that is reported first.
    await refused(c, { ...tx, from: A(3) }, 400, 'HASH_MISMATCH');
    // A different public key changes the hash too.
    await refused(c, { ...tx, publicKey: DEV_KEYS[3].publicKey }, 400, 'HASH_MISMATCH');
    // Field order is part of the canonical payload, not of the wire object: reordered keys are fine.
    const reordered = Object.fromEntries(Object.entries(tx).reverse());
    await admitted(c, reordered);
  }));

test('a from that does not derive from publicKey is 422 VALIDATION_FAILED, ahead of the signature check', () =>
  withChain(async (c) => {
    // Correctly hashed and signed by key 2, but claiming key 1's address.
    const tx = signTx({ type: 'TRANSFER', from: A(1), to: A(3), amount: '5', fee: '1000', nonce: 0, timestamp: c.now() }, DEV_KEYS[2]);
    await refused(c, tx, 422, 'VALIDATION_FAILED', "from doesn't derive from publicKey");
    await refused(c, { ...tx, signature: flipHex(tx.signature) }, 422, 'VALIDATION_FAILED');
    await refused(c, legacy(tx), 422, 'VALIDATION_FAILED');
  }));

test('a signature that does not verify is 422 INVALID_SIGNATURE, ahead of the duplicate check', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    const sig = tx.signature as string;
    await refused(c, { ...tx, signature: flipHex(sig, 0) }, 422, 'INVALID_SIGNATURE', 'signature invalid');
    await refused(c, { ...tx, signature: flipHex(sig, 63) }, 422, 'INVALID_SIGNATURE');
    await refused(c, { ...tx, signature: '0'.repeat(128) }, 422, 'INVALID_SIGNATURE');
    await refused(c, { ...tx, signature: 'f'.repeat(128) }, 422, 'INVALID_SIGNATURE');
    // The right hash signed by the wrong private key.
    await refused(c, { ...tx, signature: signMessage(tx.hash as string, DEV_KEYS[2].privateKey) }, 422, 'INVALID_SIGNATURE');
    // A signature over the payload instead of the hash string.
    await refused(c, { ...tx, signature: signMessage(`x${tx.hash as string}`, DEV_KEYS[1].privateKey) }, 422, 'INVALID_SIGNATURE');
    await refused(c, { ...legacy(tx), signature: flipHex(sig) }, 422, 'INVALID_SIGNATURE');
    await admitted(c, tx);
    // Already pending, but a broken signature is reported before the duplicate.
    await refused(c, { ...tx, signature: flipHex(sig) }, 422, 'INVALID_SIGNATURE');
  }));

test('a public key that is small-order or not on the curve is 422 INVALID_SIGNATURE, never a crash', () =>
  withChain(async (c) => {
    const keys = ['00'.repeat(32), `01${'00'.repeat(31)}`, 'ff'.repeat(32), `ec${'ff'.repeat(30)}7f`, `02${'00'.repeat(31)}`];
    for (const publicKey of keys) {
      const body: Record<string, unknown> = {
        type: 'TRANSFER',
        from: addressFromPublicKey(publicKey),
        to: A(2),
        amount: '5',
        fee: '0',
        nonce: 0,
        timestamp: c.now(),
        publicKey,
      };
      body.hash = txHash(body);
      for (const signature of ['00'.repeat(64), `01${'00'.repeat(63)}`, signMessage(body.hash as string, DEV_KEYS[1].privateKey)]) {
        await refused(c, { ...body, signature }, 422, 'INVALID_SIGNATURE');
      }
    }
  }));

test('deeply nested bodies are refused with 400 INVALID_PARAMS in either form', () =>
  withChain(async (c) => {
    const depth = 150_000;
    await refused(c, `{"type":"TRANSFER","to":${'['.repeat(depth)}${']'.repeat(depth)}}`, 400, 'INVALID_PARAMS');
    await refused(c, `{"tx":{"type":"TRANSFER","to":${'['.repeat(depth)}${']'.repeat(depth)}},"signature":"ab"}`, 400, 'INVALID_PARAMS');
    await refused(
      c,
      `{"tx":{"type":"TRANSFER","to":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}},"signature":"ab"}`,
      400,
      'INVALID_PARAMS',
    );
  }));

test('a transaction already in the mempool is 409 DUPLICATE_TX in either form', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    await admitted(c, tx);
    await refused(c, tx, 409, 'DUPLICATE_TX');
    await refused(c, legacy(tx), 409, 'DUPLICATE_TX');
    // Another transaction taking a nonce the pending run already uses is a duplicate too.
    const sameNonce = signTx(
      { type: 'TRANSFER', from: A(1), to: A(3), amount: '9', fee: '1000', nonce: 0, timestamp: c.now() },
      DEV_KEYS[1],
    );
    await refused(c, sameNonce, 409, 'DUPLICATE_TX');
    assert.equal(c.node.mempool.size, 1);
  }));

test('a transaction already mined is 409 DUPLICATE_TX, not STALE_NONCE', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    await admitted(c, tx);
    await c.produce();
    assert.equal(c.node.head().transactions[0].hash, tx.hash);
    await refused(c, tx, 409, 'DUPLICATE_TX');
    await refused(c, legacy(tx), 409, 'DUPLICATE_TX');
    await c.produce(2);
    await refused(c, tx, 409, 'DUPLICATE_TX');
  }));

test('a nonce below the account nonce is 409 STALE_NONCE with "nonce stale: tx=X, state=Y"', () =>
  withChain(async (c) => {
    await admitted(c, c.transfer(1, A(2), 5n));
    await c.produce();
    const stale = signTx({ type: 'TRANSFER', from: A(1), to: A(2), amount: '6', fee: '1000', nonce: 0, timestamp: c.now() }, DEV_KEYS[1]);
    await refused(c, stale, 409, 'STALE_NONCE', 'nonce stale: tx=0, state=1');
    await admitted(c, c.transfer(1, A(2), 5n));
    await admitted(c, c.transfer(1, A(2), 5n));
    await c.produce();
    assert.equal((await c.queries.account(A(1))).nonce, 3);
    await refused(c, stale, 409, 'STALE_NONCE', 'nonce stale: tx=0, state=3');
    const stale2 = signTx({ type: 'TRANSFER', from: A(1), to: A(2), amount: '6', fee: '1000', nonce: 2, timestamp: c.now() }, DEV_KEYS[1]);
    await refused(c, stale2, 409, 'STALE_NONCE', 'nonce stale: tx=2, state=3');
  }));

test('a nonce beyond the pending run is 422 NONCE_GAP, ahead of the balance check', () =>
  withChain(async (c) => {
    const at = (nonce: number, amount = '5') =>
      signTx({ type: 'TRANSFER', from: A(1), to: A(2), amount, fee: '1000', nonce, timestamp: c.now() }, DEV_KEYS[1]);
    await refused(c, at(1), 422, 'NONCE_GAP');
    await refused(c, at(1, (DEV_ALLOCATION * 2n).toString()), 422, 'NONCE_GAP');
    await admitted(c, at(0));
    await refused(c, at(2), 422, 'NONCE_GAP');
    await admitted(c, at(1));
    await admitted(c, at(2));
    await refused(c, at(4), 422, 'NONCE_GAP');
  }));

test('a balance below amount + fee, pending spending included, is 400 INSUFFICIENT_BALANCE', () =>
  withChain(async (c) => {
    await refused(c, c.transfer(1, A(2), DEV_ALLOCATION - 1000n + 1n, 1000n), 400, 'INSUFFICIENT_BALANCE');
    await refused(c, c.transfer(1, A(2), 1n, DEV_ALLOCATION), 400, 'INSUFFICIENT_BALANCE');
    await refused(c, c.transfer(1, A(2), '9'.repeat(78)), 400, 'INSUFFICIENT_BALANCE');
    await admitted(c, c.transfer(1, A(2), DEV_ALLOCATION - 1001n, 1000n));
    // One micro-unit is left; the pending transfer's spending counts.
    await refused(c, c.transfer(1, A(2), 1n, 1n), 400, 'INSUFFICIENT_BALANCE');
    await admitted(c, c.transfer(1, A(2), 1n, 0n));
    await refused(c, c.transfer(1, A(2), 1n, 0n), 400, 'INSUFFICIENT_BALANCE');
    await c.produce();
    assert.equal((await c.queries.account(A(1))).balance, 0n);
    await refused(c, c.transfer(1, A(2), 1n, 0n), 400, 'INSUFFICIENT_BALANCE');
  }));

test('an unfunded sender is 400 INSUFFICIENT_BALANCE, ahead of the storage check', async () => {
  const { keyPairFromPrivateKey } = await import('../../../core/keys.ts');
  const poor = keyPairFromPrivateKey('11'.repeat(32));
  await withChain(async (c) => {
    const t = signTx({ type: 'TRANSFER', from: poor.address, to: A(2), amount: '1', fee: '0', nonce: 0, timestamp: c.now() }, poor);
    await refused(c, t, 400, 'INSUFFICIENT_BALANCE');
    const s = signTx({ type: 'STORAGE_TRANSFER', from: poor.address, to: A(2), bytes: '1', fee: '1', nonce: 0, timestamp: c.now() }, poor);
    await refused(c, s, 400, 'INSUFFICIENT_BALANCE');
  });
});

test('a STORAGE_TRANSFER above the free capacity is 400 INSUFFICIENT_STORAGE, pending transfers included', () =>
  withChain(async (c) => {
    const storage = (i: number, bytes: string) => signed(c, i, { type: 'STORAGE_TRANSFER', to: A(3), bytes, fee: '10' });
    // Dev key 1 never produced a block: no capacity at all.
    await refused(c, storage(1, '1'), 400, 'INSUFFICIENT_STORAGE');
    await c.produce();
    // The authority won one block: 4096 bytes.
    await refused(c, storage(0, '4097'), 400, 'INSUFFICIENT_STORAGE');
    await admitted(c, storage(0, '4000'));
    await refused(c, storage(0, '97'), 400, 'INSUFFICIENT_STORAGE');
    await admitted(c, storage(0, '96'));
    await c.produce();
    assert.equal((await c.queries.account(A(3))).storageCapacity, 4096n);
    assert.equal((await c.queries.account(A(0))).storageCapacity, 4096n);
    await refused(c, storage(0, '4097'), 400, 'INSUFFICIENT_STORAGE');
  }));

test('a type rule (a funded like above the per-like cap) is 422 VALIDATION_FAILED, after the balance check', () =>
  withChain(async (c) => {
    const like = (fee: string) => signed(c, 1, { type: 'SOCIAL_LIKE_INTENT', author: A(2), postId: 'post-1', tokens: 10_001, fee });
    await refused(c, like('10000'), 422, 'VALIDATION_FAILED', /10,?000/);
    await refused(c, like((DEV_ALLOCATION + 1n).toString()), 400, 'INSUFFICIENT_BALANCE');
  }));

test('type-specific rules are 422 VALIDATION_FAILED: zero amount, a timestamp far ahead, a second MINER_REGISTER', () =>
  withChain(async (c) => {
    await refused(c, c.transfer(1, A(2), 0n), 422, 'VALIDATION_FAILED');
    const ahead = signTx(
      { type: 'TRANSFER', from: A(1), to: A(2), amount: '5', fee: '1000', nonce: 0, timestamp: c.now() + 10 * 60_000 },
      DEV_KEYS[1],
    );
    await refused(c, ahead, 422, 'VALIDATION_FAILED');
    const reg = () => signed(c, 4, { type: 'MINER_REGISTER', name: 'gpu-box', capabilities: ['chat'], fee: '1000' });
    await admitted(c, reg());
    await c.produce();
    await refused(c, reg(), 422, 'VALIDATION_FAILED', /already registered/);
  }));

test('a syncing node answers 503 SYNCING to a well-formed post and admits nothing', () =>
  withChain(
    async (c) => {
      await refused(c, c.transfer(1, A(2), 5n), 503, 'SYNCING');
      await refused(c, '{', 400, 'INVALID_JSON');
    },
    { network: { ...noNetwork, syncing: () => true } },
  ));

test('a transfer to an address nobody holds a key for is admitted and mined', () =>
  withChain(async (c) => {
    await admitted(c, c.transfer(1, STRANGER, 5n));
    await c.produce();
    assert.equal((await c.queries.account(STRANGER)).balance, 5n);
  }));

const TX_KEYS = ['type', 'from', 'to', 'amount', 'fee', 'nonce', 'timestamp', 'publicKey', 'hash', 'signature'];

test('a pending transaction is served whole with status "pending"', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    await admitted(c, tx);
    const res = await get(c, `/api/chain/tx/${tx.hash}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { ...tx, status: 'pending' });
    assertKeys(res.body, [...TX_KEYS, 'status']);
  }));

test('a confirmed transaction carries blockIndex, blockHeight, blockHash, position, timestamp and status "confirmed"', () =>
  withChain(async (c) => {
    const first = c.transfer(1, A(2), 5n, 2000n);
    const second = c.transfer(3, A(2), 6n, 1000n);
    await admitted(c, second);
    await admitted(c, first);
    await c.produce();
    const head = c.node.head();
    const res = await get(c, `/api/chain/tx/${second.hash}`);
    assert.equal(res.status, 200);
    assertKeys(res.body, [...TX_KEYS, 'blockIndex', 'blockHeight', 'blockHash', 'position', 'status']);
    // Higher fee first: `first` sits at position 0, `second` at 1.
    assert.deepEqual(res.body, {
      ...second,
      blockIndex: 1,
      blockHeight: 1,
      blockHash: head.hash,
      position: 1,
      timestamp: second.timestamp,
      status: 'confirmed',
    });
    assert.equal(typeof res.body.blockIndex, 'number');
    assert.equal(typeof res.body.timestamp, 'number');
    const up = await get(c, `/api/chain/tx/${(first.hash as string).toUpperCase()}`);
    assert.equal(up.status, 200);
    assert.equal(up.body.hash, first.hash);
    assert.equal(up.body.position, 0);
  }));

test('a transaction included while it is read is confirmed, never 404: the index read before the fold, the mempool after', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    await admitted(c, tx);
    // The interleaving the crash matrix met under load: the index is read just before the block
    // is folded (nothing there yet), the mempool just after the block took the transaction out.
    const runner = c.node.runner;
    const readable = runner.readable.bind(runner);
    let first = true;
    runner.readable = (async (p: Parameters<typeof readable>[0]) => {
      if (!first) return readable(p);
      first = false;
      await c.produce();
      return { get: async () => undefined };
    }) as typeof runner.readable;
    const res = await get(c, `/api/chain/tx/${tx.hash}`);
    assert.equal(first, false, 'the index was read');
    assert.equal(c.node.mempool.size, 0);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual({ status: res.body.status, blockIndex: res.body.blockIndex }, { status: 'confirmed', blockIndex: 1 });
  }));

test('an unknown hash is 404 NOT_FOUND and a malformed one 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    assertError(await get(c, `/api/chain/tx/${'ab'.repeat(32)}`), 404, 'NOT_FOUND');
    for (const bad of ['xyz', `${'ab'.repeat(31)}a`, `${'ab'.repeat(32)}a`, 'g'.repeat(64), '1'.repeat(10_000), '-1']) {
      assertError(await get(c, `/api/chain/tx/${bad}`), 400, 'INVALID_PARAMS');
    }
  }));
