/** The accounts prefetch before a block is applied (node/writer/recordLoader.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountKey } from '../../../../core/accountRow.ts';
import { withRecordCache } from '../../../../core/recordCache.ts';
import { emptyState } from '../../../../core/state.ts';
import { prefetchAccounts } from '../../../../node/writer/recordLoader.ts';
import { DEV_KEYS, transfer } from '../../../helpers/coreSupport.ts';

const [K0, K1, K2] = DEV_KEYS;

test('one read loads the proposer and the accounts the transactions name as addresses, lower-cased, and nothing else', async () => {
  const state = withRecordCache(emptyState(), 100, 100);
  // The proposer's account is cached already: not read.
  state.accounts.set(K2.address, { balance: 0n, nonce: 0, storageCapacity: 0n, storageUsed: 0n });
  const to = `ox${'AB'.repeat(20)}`;
  // Address-shaped text outside an address field (a hash, a public key, an unknown field) is no account.
  const odd = { ...transfer(K1, { to }), memo: K0.address };
  const block = {
    proposer: K2.address,
    transactions: [odd, { type: 'NO_SUCH_TYPE', from: `ox${'cd'.repeat(20)}`, to: K0.address }, null, 7],
  };
  const reads: string[][] = [];
  await prefetchAccounts(state, block, async (keys) => {
    reads.push(keys);
    return keys.map(() => undefined);
  });
  assert.deepEqual(reads, [[accountKey(K1.address), accountKey(to.toLowerCase()), accountKey(`ox${'cd'.repeat(20)}`)]]);
});
