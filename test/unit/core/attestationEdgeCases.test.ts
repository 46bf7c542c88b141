/**
 * Path c of the Ed25519 edge cases: the same constructions as fixtures/ed25519-edge-cases.json,
 * replayed over a block hash as the proposer's attestation. Each genesis makes the vector's key
 * the only authority, so a valid signature yields a valid block and an invalid one nothing else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressFromPublicKey } from '../../../core/address.ts';
import { applyBlock, genesisState } from '../../../core/applyBlock.ts';
import { buildBlock } from '../../../core/buildBlock.ts';
import type { Block } from '../../../core/block.ts';
import type { Genesis } from '../../../core/genesis.ts';
import { verifySignature } from '../../../core/signature.ts';
import { CONSTRUCTIONS, type Construction } from '../../helpers/ed25519Craft.ts';
import { DEV_GENESIS, DEV_KEYS, refOf, refusal } from '../../helpers/coreSupport.ts';

/** A genesis whose single authority is the vector key's address, and its next block attested by `sign`. */
function blockAttestedBy(c: Construction): { g: Genesis; block: Block; parent: ReturnType<typeof refOf> } {
  const address = addressFromPublicKey(c.publicKey);
  const g: Genesis = { ...DEV_GENESIS, authorities: [address] };
  const { state, block: genesis } = genesisState(g);
  const ts = g.timestamp + g.blockTimeMs;
  // Any private key builds the header; the attestation is then replaced by the crafted one.
  const proposer = { privateKey: DEV_KEYS[0].privateKey, publicKey: c.publicKey, address };
  const { block } = buildBlock(state, refOf(genesis), [], proposer, ts, g);
  const attested = { ...block, attestations: [{ validatorAddress: address, signature: c.sign(block.hash), publicKey: c.publicKey }] };
  return { g, block: attested, parent: refOf(genesis) };
}

test('every construction, signed over a block hash, keeps its verdict under verifySignature', () => {
  for (const c of CONSTRUCTIONS) {
    const { block } = blockAttestedBy(c);
    assert.equal(verifySignature(c.publicKey, block.hash, block.attestations[0].signature), c.valid, c.name);
  }
});

test('path c: applyBlock accepts a block attested by a valid vector and refuses every invalid one with INVALID_BLOCK', () => {
  for (const c of CONSTRUCTIONS) {
    const { g, block, parent } = blockAttestedBy(c);
    const state = genesisState(g).state;
    const run = () => applyBlock(state, parent, JSON.parse(JSON.stringify(block)), g, { now: block.timestamp });
    if (c.valid) assert.equal(run().stateRoot, block.stateRoot, c.name);
    else assert.deepEqual(refusal(run), { code: 'INVALID_BLOCK', message: 'block 1: attestation signature invalid' }, c.name);
  }
});

test('replay without a clock (no `now`) gives the same attestation verdicts', () => {
  for (const c of CONSTRUCTIONS) {
    const { g, block, parent } = blockAttestedBy(c);
    const state = genesisState(g).state;
    const run = () => applyBlock(state, parent, block, g);
    if (c.valid) assert.equal(run().stateRoot, block.stateRoot, c.name);
    else assert.equal(refusal(run).code, 'INVALID_BLOCK', c.name);
  }
});

test('a valid attestation by a key that is not the proposer address is refused for the key, not the signature', () => {
  const g: Genesis = { ...DEV_GENESIS };
  const { state, block: genesis } = genesisState(g);
  const ts = g.timestamp + g.blockTimeMs;
  const { block } = buildBlock(state, refOf(genesis), [], DEV_KEYS[0], ts, g);
  const other = CONSTRUCTIONS.find((c) => c.name.startsWith('valid: mixed-order'))!;
  const forged = {
    ...block,
    attestations: [{ validatorAddress: DEV_KEYS[0].address, signature: other.sign(block.hash), publicKey: other.publicKey }],
  };
  assert.deepEqual(
    refusal(() => applyBlock(state, refOf(genesis), forged, g)),
    { code: 'INVALID_BLOCK', message: 'block 1: attestation key does not match its address' },
  );
});
