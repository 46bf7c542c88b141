/**
 * Properties of POST /api/chain/tx: random bodies and mutated transactions. Only well-formed,
 * correctly signed, funded transactions with the right nonce are admitted; every refusal is a
 * 4xx `{error, code}` with the code and status api/errors.ts gives, and changes nothing.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signMessage } from '../../../core/keys.ts';
import { TX_TYPES } from '../../../core/tx/registry.ts';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS, type TestChain } from '../../helpers/testChain.ts';
import {
  assertErrorShape,
  DEV_ALLOCATION,
  heldAccount,
  nextNonce,
  postTx,
  snapshot,
  STRANGER,
  withChain,
} from '../../helpers/apiSupport.ts';

const RUNS = 150;
const TRANSFER_KEYS = ['type', 'from', 'to', 'amount', 'fee', 'nonce', 'timestamp', 'publicKey', 'hash', 'signature'] as const;
const STRING_FIELDS = ['type', 'from', 'to', 'amount', 'fee', 'publicKey', 'hash', 'signature'] as const;
const NUMBER_FIELDS = ['nonce', 'timestamp'] as const;
const LONG = 'x'.repeat(10_000);

type Expect = { status: 200 } | { status: number; code: string };

/** What the node should answer, computed when the mutation is applied to a fresh base transaction. */
interface Case {
  body: unknown;
  expect: Expect;
  legacy: boolean;
}

type Mutation =
  | { kind: 'none'; legacy: boolean }
  | { kind: 'resign'; amount: bigint; fee: bigint; to: number; legacy: boolean }
  | { kind: 'resignNonce'; delta: number }
  | { kind: 'drop'; field: (typeof TRANSFER_KEYS)[number] }
  | { kind: 'add'; name: string; value: unknown }
  | { kind: 'retype'; field: string; value: unknown }
  | { kind: 'tamper'; field: 'amount' | 'fee' | 'nonce' | 'to' | 'timestamp'; delta: number }
  | { kind: 'flipSig'; byte: number; bit: number; legacy: boolean }
  | { kind: 'wrongKey'; signer: number }
  | { kind: 'foreignFrom'; signer: number }
  | { kind: 'huge'; field: string; value: unknown };

const notString = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);
const notUint = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.boolean(),
  fc.constant(null),
  fc.integer({ max: -1 }),
  fc.double({ noNaN: true }).filter((d) => !Number.isSafeInteger(d) || d < 0),
  fc.array(fc.nat(), { maxLength: 3 }),
);
const amount = fc.oneof(
  { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 1_000_000_000n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 2n * DEV_ALLOCATION }) },
  { weight: 1, arbitrary: fc.constantFrom(0n, 10n ** 77n, 10n ** 78n - 1n) },
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('none' as const), legacy: fc.boolean() }),
  fc.record({
    kind: fc.constant('resign' as const),
    amount,
    fee: fc.bigInt({ min: 0n, max: 1_000_000n }),
    to: fc.integer({ min: 0, max: 10 }),
    legacy: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('resignNonce' as const),
    delta: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant(Number.MAX_SAFE_INTEGER)),
  }),
  fc.record({ kind: fc.constant('drop' as const), field: fc.constantFrom(...TRANSFER_KEYS) }),
  fc.record({
    kind: fc.constant('add' as const),
    name: fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !(TRANSFER_KEYS as readonly string[]).includes(n)),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.oneof(
    fc.record({ kind: fc.constant('retype' as const), field: fc.constantFrom<string>(...STRING_FIELDS), value: notString }),
    fc.record({ kind: fc.constant('retype' as const), field: fc.constantFrom<string>(...NUMBER_FIELDS), value: notUint }),
  ),
  fc.record({
    kind: fc.constant('tamper' as const),
    field: fc.constantFrom('amount' as const, 'fee' as const, 'nonce' as const, 'to' as const, 'timestamp' as const),
    delta: fc.integer({ min: 1, max: 1000 }),
  }),
  fc.record({
    kind: fc.constant('flipSig' as const),
    byte: fc.integer({ min: 0, max: 63 }),
    bit: fc.integer({ min: 0, max: 7 }),
    legacy: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('wrongKey' as const), signer: fc.integer({ min: 0, max: 9 }) }),
  fc.record({ kind: fc.constant('foreignFrom' as const), signer: fc.integer({ min: 0, max: 9 }) }),
  fc.record({
    kind: fc.constant('huge' as const),
    field: fc.constantFrom('amount', 'fee', 'nonce', 'timestamp', 'to', 'from', 'type', 'hash', 'signature', 'publicKey'),
    value: fc.constantFrom<unknown>(1e99, '1e99', -1, '-1', -1e99, '9'.repeat(79), LONG, 2 ** 53, 1.5, '1.5', Infinity),
  }),
);

/** Turns a mutation of a fresh, valid transfer from dev key `sender` into a body and the expected answer. */
function build(c: TestChain, sender: number, m: Mutation): Case {
  const key = DEV_KEYS[sender];
  const nonce = nextNonce(c, sender);
  const available = heldAccount(c, key.address).balance - c.node.mempool.pending(key.address).balance;
  const fields = {
    type: 'TRANSFER',
    from: key.address,
    to: DEV_KEYS[(sender % 9) + 1].address,
    amount: '1000',
    fee: '100',
    nonce,
    timestamp: c.now(),
  };
  const base = signTx(fields, key) as Record<string, unknown>;
  const ok: Expect = { status: 200 };
  const funded = (a: bigint, f: bigint): Expect =>
    available < a + f ? { status: 400, code: 'INSUFFICIENT_BALANCE' } : a === 0n ? { status: 422, code: 'VALIDATION_FAILED' } : ok;
  const bad = { status: 400, code: 'INVALID_PARAMS' };
  switch (m.kind) {
    case 'none':
      return { body: base, expect: funded(1000n, 100n), legacy: m.legacy };
    case 'resign': {
      const to = m.to === 10 ? STRANGER : DEV_KEYS[m.to].address;
      const tx = signTx({ ...fields, to, amount: m.amount.toString(), fee: m.fee.toString() }, key);
      return { body: tx, expect: funded(m.amount, m.fee), legacy: m.legacy };
    }
    case 'resignNonce':
      return {
        body: signTx({ ...fields, nonce: Math.min(nonce + m.delta, Number.MAX_SAFE_INTEGER) }, key),
        expect: { status: 422, code: 'NONCE_GAP' },
        legacy: false,
      };
    case 'drop': {
      const { [m.field]: _d, ...rest } = base;
      return { body: rest, expect: bad, legacy: false };
    }
    case 'add':
      return { body: { ...base, [m.name]: m.value }, expect: bad, legacy: false };
    case 'retype':
      return { body: { ...base, [m.field]: m.value }, expect: bad, legacy: false };
    case 'huge':
      return { body: { ...base, [m.field]: m.value }, expect: bad, legacy: false };
    case 'tamper': {
      const v = base[m.field];
      const others = DEV_KEYS.map((k) => k.address).filter((a) => a !== v);
      const changed =
        m.field === 'to'
          ? others[m.delta % others.length]
          : typeof v === 'number'
            ? v + m.delta
            : (BigInt(v as string) + BigInt(m.delta)).toString();
      if (changed === v) throw new Error('tamper produced the same value');
      return { body: { ...base, [m.field]: changed }, expect: { status: 400, code: 'HASH_MISMATCH' }, legacy: false };
    }
    case 'flipSig': {
      const sig = Buffer.from(base.signature as string, 'hex');
      sig[m.byte] ^= 1 << m.bit;
      return { body: { ...base, signature: sig.toString('hex') }, expect: { status: 422, code: 'INVALID_SIGNATURE' }, legacy: m.legacy };
    }
    case 'wrongKey': {
      const expect = m.signer === sender ? funded(1000n, 100n) : { status: 422, code: 'INVALID_SIGNATURE' };
      return { body: { ...base, signature: signMessage(base.hash as string, DEV_KEYS[m.signer].privateKey) }, expect, legacy: false };
    }
    case 'foreignFrom': {
      const tx = signTx(fields, DEV_KEYS[m.signer]);
      const expect = m.signer === sender ? funded(1000n, 100n) : { status: 422, code: 'VALIDATION_FAILED' };
      return { body: tx, expect, legacy: false };
    }
  }
}

/** The older form of a body: `{tx: {...without hash and signature}, signature}`. */
function asLegacy(body: Record<string, unknown>): unknown {
  const { hash: _h, signature, ...tx } = body;
  return { tx, signature };
}

test('random bodies are refused with 400 INVALID_JSON or INVALID_PARAMS and change nothing', () =>
  withChain(async (c) => {
    const before = snapshot(c);
    const typed = fc
      .record({ type: fc.constantFrom(...TX_TYPES) })
      .chain((r) =>
        fc
          .dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 12 })
          .map((d) => JSON.stringify({ ...d, ...r })),
      );
    const bodies = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 200 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ tx: v, signature: 'ab' })),
      typed,
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (body) => {
        let isJson = true;
        try {
          JSON.parse(body);
        } catch {
          isJson = false;
        }
        const res = await postTx(c, body);
        assert.equal(res.status, 400, `${body.slice(0, 100)} -> ${res.status} ${JSON.stringify(res.body)}`);
        assertErrorShape(res.body);
        assert.equal(res.body.code, isJson ? 'INVALID_PARAMS' : 'INVALID_JSON');
      }),
      { numRuns: RUNS },
    );
    assert.deepEqual(snapshot(c), before);
  }));

test('mutated transfers are admitted only when well-formed, correctly signed, funded and in nonce order', () =>
  withChain(async (c) => {
    let admitted = 0;
    let refusedCount = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 9 }), mutation, async (sender, m) => {
        if (c.node.mempool.size >= 40) await c.produce();
        const { body, expect, legacy } = build(c, sender, m);
        const sent = legacy ? asLegacy(body as Record<string, unknown>) : body;
        const before = snapshot(c);
        const res = await postTx(c, sent);
        const label = `${m.kind} from ${sender}: ${JSON.stringify(res.body)}`;
        if (expect.status === 200) {
          assert.equal(res.status, 200, label);
          const hash = (body as Record<string, unknown>).hash;
          assert.deepEqual(res.body, legacy ? { ok: true, hash, txHash: hash } : { ok: true, hash });
          assert.equal(c.node.mempool.size, before.mempool.length + 1);
          assert.ok(c.node.mempool.has(hash as string));
          admitted++;
        } else {
          assert.deepEqual(
            { status: res.status, code: res.body.code },
            { status: expect.status, code: (expect as { code: string }).code },
            label,
          );
          assert.ok(res.status >= 400 && res.status < 500);
          assertErrorShape(res.body);
          assert.deepEqual(snapshot(c), before, `state changed after ${label}`);
          refusedCount++;
        }
      }),
      { numRuns: RUNS },
    );
    // The generator reaches both sides.
    assert.ok(admitted > 5, `only ${admitted} admitted`);
    assert.ok(refusedCount > 50, `only ${refusedCount} refused`);
    // What was admitted is minable: the block takes every pending transaction.
    const pending = c.node.mempool.size;
    await c.produce();
    assert.equal(c.node.head().transactions.length, pending);
    assert.equal(c.node.mempool.size, 0);
  }));
