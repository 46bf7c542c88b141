/** Stored blocks checked from their bytes in the verification workers (node/verification/blockCheckJob.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState, txBytes } from '../../../../core/applyBlock.ts';
import { buildBlock } from '../../../../core/buildBlock.ts';
import type { Block } from '../../../../core/block.ts';
import { VerifyPool } from '../../../../node/verification/verifyPool.ts';
import { DEV_GENESIS, DEV_KEYS, refOf, transfer } from '../../../helpers/coreSupport.ts';

const G = DEV_GENESIS;
const [K0, K1, K2] = DEV_KEYS;
const { state, block: genesis } = genesisState(G);
const BLOCK: Block = buildBlock(state, refOf(genesis), [transfer(K1), transfer(K2)], K0, G.timestamp + G.blockTimeMs, G).block;
const bytesOf = (b: unknown, assumed = false) => ({ bytes: Buffer.from(JSON.stringify(b)), assumed });
const withTx = (change: Record<string, unknown>): Block => ({
  ...BLOCK,
  transactions: [{ ...BLOCK.transactions[0], ...change }, BLOCK.transactions[1]],
});

test('the workers judge each stored block: signatures (unless assumed) and its transactions, in order', async () => {
  const otherSignature = transfer(K1, { amount: '7' }).signature;
  const blocks = [
    bytesOf(BLOCK),
    // The stored hash and signature kept: the signature still passes, the transaction's hash does not.
    bytesOf(withTx({ amount: '9' })),
    bytesOf(withTx({ signature: otherSignature })),
    bytesOf(withTx({ signature: otherSignature }), true),
    bytesOf({ ...BLOCK, attestations: [{ ...BLOCK.attestations[0], signature: otherSignature }] }),
    { bytes: Buffer.from('{"index":'), assumed: true },
  ];
  const pool = new VerifyPool({ workers: 2 });
  try {
    const v = await pool.checkBlocks(blocks);
    assert.deepEqual([...v.signatures], [1, 1, 0, 1, 0, 0]);
    const good = txBytes(BLOCK.transactions);
    assert.deepEqual([...v.txBytes], [good, -1, good, good, good, -1]);
  } finally {
    await pool.close();
  }
});
