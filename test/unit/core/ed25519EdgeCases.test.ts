import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressFromPublicKey } from '../../../core/address.ts';
import { applyBlock, genesisState } from '../../../core/applyBlock.ts';
import { buildBlock } from '../../../core/buildBlock.ts';
import { isValidPublicKey, verifySignature } from '../../../core/signature.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { txHash } from '../../../core/txCodec.ts';
import { validateTx } from '../../../core/validateTx.ts';
import {
  CONSTRUCTIONS,
  generateFixture,
  laxVerdict,
  referenceVerdict,
  vectorTransfer,
  type EdgeVector,
} from '../../helpers/ed25519Craft.ts';
import { DEV_GENESIS, DEV_KEYS, fixture, refOf, refusal } from '../../helpers/coreSupport.ts';

const FX = fixture<{ description: string; vectors: EdgeVector[] }>('ed25519-edge-cases.json');
const SMALL_ORDER_KEYS = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
];

/** The vector's TRANSFER, signed with the vector's signature. */
function signedTransfer(v: EdgeVector): SignedTx {
  return { ...vectorTransfer(v.publicKey), hash: v.message, signature: v.signature } as SignedTx;
}

test('the fixture is exactly what its generator produces (deterministic, nothing hand-edited)', () => {
  assert.deepEqual(FX, generateFixture());
});

test('the fixture has both verdicts and covers all 8 small-order keys and non-canonical A, R and S', () => {
  const keys = new Set(FX.vectors.map((v) => v.publicKey));
  for (const k of SMALL_ORDER_KEYS) assert.ok(keys.has(k), k);
  for (const k of [
    'edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    'eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
    '0100000000000000000000000000000000000000000000000000000000000080',
  ]) {
    assert.ok(keys.has(k), k);
  }
  assert.ok(FX.vectors.some((v) => v.valid) && FX.vectors.some((v) => !v.valid));
  assert.ok(
    FX.vectors.some((v) => /non-canonical R/.test(v.name)) &&
      FX.vectors.some((v) => /S\+L/.test(v.name)) &&
      FX.vectors.some((v) => /S = L/.test(v.name)),
  );
  assert.equal(new Set(FX.vectors.map((v) => v.name)).size, FX.vectors.length);
});

test("each vector's message is the hash of its TRANSFER from the key's address", () => {
  for (const v of FX.vectors) {
    assert.equal(v.message, txHash(vectorTransfer(v.publicKey)), v.name);
    assert.equal(vectorTransfer(v.publicKey).from, addressFromPublicKey(v.publicKey));
  }
});

test('each name starts with its verdict', () => {
  for (const v of FX.vectors) assert.ok(v.name.startsWith(v.valid ? 'valid: ' : 'invalid: '), v.name);
});

test('crafted invalid signatures are ones a lax verifier accepts, so only the rule refuses them', () => {
  FX.vectors.forEach((v, i) => assert.equal(laxVerdict(v.publicKey, v.message, v.signature), CONSTRUCTIONS[i].lax, v.name));
  const attacks = FX.vectors.filter((v, i) => !v.valid && CONSTRUCTIONS[i].lax !== 'none');
  assert.ok(attacks.length >= 16, `only ${attacks.length} crafted attacks`);
});

test('path a: verifySignature gives every vector its verdict', () => {
  for (const v of FX.vectors) assert.equal(verifySignature(v.publicKey, v.message, v.signature), v.valid, v.name);
});

test('path a, as bytes: verifySignature gives the same verdict for the message as UTF-8 bytes', () => {
  for (const v of FX.vectors) assert.equal(verifySignature(v.publicKey, new TextEncoder().encode(v.message), v.signature), v.valid, v.name);
});

test('the rule written out independently with @noble arithmetic gives every vector its verdict', () => {
  for (const v of FX.vectors) assert.equal(referenceVerdict(v.publicKey, v.message, v.signature), v.valid, v.name);
});

test('small-order and non-canonical keys are never acceptable signer keys', () => {
  const weak = FX.vectors.filter((x) => /small-order key|non-canonical key/.test(x.name));
  assert.equal(weak.length, 12);
  for (const v of weak) assert.ok(!isValidPublicKey(v.publicKey), v.name);
  assert.ok(isValidPublicKey(DEV_KEYS[0].publicKey));
});

test('path b: validateTx accepts the valid vectors and answers INVALID_SIGNATURE for every invalid one', () => {
  const s = new StateOverlay(genesisState(DEV_GENESIS).state);
  for (const v of FX.vectors) s.account(addressFromPublicKey(v.publicKey)).balance += 10n;
  const env = { state: s, height: 1, timestamp: DEV_GENESIS.timestamp + 1000, genesis: DEV_GENESIS };
  for (const v of FX.vectors) {
    const tx = signedTransfer(v);
    if (v.valid) assert.equal(validateTx(tx, env).hash, v.message, v.name);
    else
      assert.deepEqual(
        refusal(() => validateTx(tx, env)),
        { code: 'INVALID_SIGNATURE', message: 'signature invalid' },
        v.name,
      );
  }
});

test('path b in a block: applyBlock accepts a valid vector transaction and refuses an invalid one as INVALID_BLOCK', () => {
  const g = { ...DEV_GENESIS, allocations: { ...DEV_GENESIS.allocations } };
  for (const v of FX.vectors) g.allocations[addressFromPublicKey(v.publicKey)] = '10';
  const { state, block: genesis } = genesisState(g);
  const ts = g.timestamp + g.blockTimeMs;
  for (const v of FX.vectors) {
    const tx = signedTransfer(v);
    const { block, dropped } = buildBlock(state, refOf(genesis), [tx], DEV_KEYS[0], ts, g);
    assert.equal(dropped.length, 0, v.name);
    if (v.valid) assert.equal(applyBlock(state, refOf(genesis), block, g, { now: ts }).stateRoot, block.stateRoot, v.name);
    else
      assert.deepEqual(
        refusal(() => applyBlock(state, refOf(genesis), block, g, { now: ts })),
        { code: 'INVALID_BLOCK', message: 'block 1: invalid transaction: INVALID_SIGNATURE: signature invalid' },
        v.name,
      );
  }
});
