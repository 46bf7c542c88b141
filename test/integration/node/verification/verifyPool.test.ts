/** The verification pool's workers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VerifyPool } from '../../../../node/verification/verifyPool.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';
import { signMessage } from '../../../../core/keys.ts';

test('a second pool verifies as the first did (its workers start from the cache)', async () => {
  const k = DEV_KEYS[1];
  const good = { publicKey: k.publicKey, hash: 'ab'.repeat(32), signature: signMessage('ab'.repeat(32), k.privateKey) };
  const bad = { ...good, hash: 'cd'.repeat(32) };
  for (let i = 0; i < 2; i++) {
    const pool = new VerifyPool({ workers: 2 });
    try {
      assert.deepEqual(await pool.verifyTxs([good, bad, good, { publicKey: 'zz', hash: 1, signature: null }]), [1, 3]);
    } finally {
      await pool.close();
    }
  }
});
