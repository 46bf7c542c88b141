import { createHash } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import { blockHash, checkBlockShape, slotOf, slotOwner, type BlockHeader } from '../../../core/block.ts';
import { nextStateRoot } from '../../../core/stateRoot.ts';
import { ZERO_HASH } from '../../../core/hash.ts';
import { emptyRecords, emptyAccount, type StateDiff } from '../../../core/state.ts';
import { DEV_GENESIS, DEV_KEYS, refusal } from '../../helpers/coreSupport.ts';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const HEADER: BlockHeader = {
  index: 7,
  previousHash: 'ab'.repeat(32),
  timestamp: 1767225607000,
  proposer: DEV_KEYS[0].address,
  txRoot: 'cd'.repeat(32),
  stateRoot: 'ef'.repeat(32),
  tokensBurned: '12',
  tokensConsumed: '0',
};

test('the block hash is SHA-256 of the compact header JSON in the documented field order', () => {
  const json = `{"index":7,"previousHash":"${'ab'.repeat(32)}","timestamp":1767225607000,"proposer":"${DEV_KEYS[0].address}","txRoot":"${'cd'.repeat(32)}","stateRoot":"${'ef'.repeat(32)}","tokensBurned":"12","tokensConsumed":"0"}`;
  assert.equal(blockHash(HEADER), sha(json));
});

test('the block hash ignores the key order it is given and every non-header field', () => {
  const shuffled = Object.fromEntries(Object.entries(HEADER).reverse()) as unknown as BlockHeader;
  assert.equal(blockHash(shuffled), blockHash(HEADER));
  const full = { ...HEADER, hash: 'x', transactions: [{ hash: 'y' }], attestations: [] } as unknown as BlockHeader;
  assert.equal(blockHash(full), blockHash(HEADER));
});

test('every header field is covered by the hash', () => {
  const changed: Partial<BlockHeader>[] = [
    { index: 8 },
    { previousHash: '00'.repeat(32) },
    { timestamp: 1 },
    { proposer: DEV_KEYS[1].address },
    { txRoot: '00'.repeat(32) },
    { stateRoot: '00'.repeat(32) },
    { tokensBurned: '13' },
    { tokensConsumed: '1' },
  ];
  for (const c of changed) assert.notEqual(blockHash({ ...HEADER, ...c }), blockHash(HEADER), JSON.stringify(c));
});

test('the genesis block has index 0, a zero parent, the genesis timestamp, the zero proposer and nothing inside', () => {
  const { block } = genesisState(DEV_GENESIS);
  assert.deepEqual(
    {
      index: block.index,
      previousHash: block.previousHash,
      timestamp: block.timestamp,
      proposer: block.proposer,
      txRoot: block.txRoot,
      tokensBurned: block.tokensBurned,
      tokensConsumed: block.tokensConsumed,
      transactions: block.transactions,
      attestations: block.attestations,
    },
    {
      index: 0,
      previousHash: '0'.repeat(64),
      timestamp: 1767225600000,
      proposer: `ox${'0'.repeat(40)}`,
      txRoot: '0'.repeat(64),
      tokensBurned: '0',
      tokensConsumed: '0',
      transactions: [],
      attestations: [],
    },
  );
  assert.equal(block.hash, blockHash(block));
});

test("the genesis stateRoot commits to the chain identity and the allocations: SHA-256(identity + SHA-256(sorted entries' JSON))", () => {
  const entries: [string, unknown][] = Object.entries(DEV_GENESIS.allocations).map(([a, v]) => [`a:${a}`, [v, 0, '0', '0', '']]);
  entries.push(['s', ['10000000000000', '0', '0', '0']]);
  entries.sort((x, y) => (x[0] < y[0] ? -1 : 1));
  const g = DEV_GENESIS;
  const identity = sha(
    JSON.stringify({
      chainId: g.chainId,
      timestamp: g.timestamp,
      blockTimeMs: g.blockTimeMs,
      authorities: g.authorities,
      blockReward: g.blockReward,
    }),
  );
  assert.equal(genesisState(DEV_GENESIS).block.stateRoot, sha(identity + sha(JSON.stringify(entries))));
});

test('two genesis files that differ only in chainId or authorities have different genesis hashes', () => {
  const base = genesisState(DEV_GENESIS).block.hash;
  assert.notEqual(genesisState({ ...DEV_GENESIS, chainId: 'other' }).block.hash, base);
  assert.notEqual(genesisState({ ...DEV_GENESIS, authorities: [DEV_KEYS[1].address] }).block.hash, base);
  // Fork heights are operator overrides, not identity.
  assert.equal(genesisState({ ...DEV_GENESIS, forks: { ...DEV_GENESIS.forks, 6: 99 } }).block.hash, base);
});

test('the genesis state holds the allocations and emitted equals their sum', () => {
  const { state } = genesisState(DEV_GENESIS);
  assert.equal(state.accounts.size, 10);
  for (const k of DEV_KEYS) assert.deepEqual(state.accounts.get(k.address), { ...emptyAccount(), balance: 1_000_000_000_000n });
  assert.deepEqual(state.supply, { emitted: 10_000_000_000_000n, burned: 0n, escrow: 0n, feesPaid: 0n });
});

test('the stateRoot of a diff chains on the previous root and encodes accounts, records (key-sorted) and supply as documented', () => {
  const records = emptyRecords();
  // Keys deliberately out of order: the encoding sorts them.
  records.miners.set('ff'.repeat(32), {
    txHash: 'ee'.repeat(32),
    name: 'm',
    id: 'ff'.repeat(32),
    address: DEV_KEYS[1].address,
    capabilities: ['chat'],
    registeredAt: 3,
  });
  const diff: StateDiff = {
    accounts: new Map([
      [DEV_KEYS[1].address, { balance: 5n, nonce: 2, storageCapacity: 4096n, storageUsed: 10n, minerId: 'ff'.repeat(32) }],
    ]),
    records,
    supply: { emitted: 9n, burned: 1n, escrow: 3n, feesPaid: 4n },
  };
  const entries = [
    [`a:${DEV_KEYS[1].address}`, ['5', 2, '4096', '10', 'ff'.repeat(32)]],
    [
      `m:${'ff'.repeat(32)}`,
      { address: DEV_KEYS[1].address, capabilities: ['chat'], id: 'ff'.repeat(32), name: 'm', registeredAt: 3, txHash: 'ee'.repeat(32) },
    ],
    ['s', ['9', '1', '3', '4']],
  ];
  assert.equal(nextStateRoot('12'.repeat(32), diff), sha('12'.repeat(32) + sha(JSON.stringify(entries))));
  assert.notEqual(nextStateRoot(ZERO_HASH, diff), nextStateRoot('12'.repeat(32), diff));
});

test('slots are floor(timestamp / blockTimeMs) and slot s belongs to authorities[s mod n]', () => {
  assert.equal(slotOf(1767225600999, 1000), 1767225600);
  assert.equal(slotOf(1767225601000, 1000), 1767225601);
  const g = { ...DEV_GENESIS, authorities: [DEV_KEYS[0].address, DEV_KEYS[1].address, DEV_KEYS[2].address] };
  assert.deepEqual(
    [3, 4, 5, 6].map((s) => slotOwner(g, s)),
    [DEV_KEYS[0].address, DEV_KEYS[1].address, DEV_KEYS[2].address, DEV_KEYS[0].address],
  );
});

test('malformed blocks are INVALID_BLOCK naming what is wrong', () => {
  const good = { ...HEADER, hash: 'aa'.repeat(32), transactions: [], attestations: [] };
  const cases: [unknown, string][] = [
    [null, 'malformed block: not an object'],
    [[], 'malformed block: not an object'],
    [{ ...good, extra: 1 }, 'malformed block: unknown field extra'],
    [{ ...good, index: -1 }, 'malformed block: index'],
    [{ ...good, hash: 'AA'.repeat(32) }, 'malformed block: hash'],
    [{ ...good, timestamp: 1.5 }, 'malformed block: timestamp'],
    [{ ...good, proposer: 'ox1' }, 'malformed block: proposer'],
    [{ ...good, tokensBurned: '-1' }, 'malformed block: token counters'],
    [{ ...good, transactions: {} }, 'malformed block: transactions'],
    [
      { ...good, attestations: [{ validatorAddress: DEV_KEYS[0].address, signature: 'ab'.repeat(64), publicKey: 'ab'.repeat(32), x: 1 }] },
      'malformed block: attestation',
    ],
    [{ ...good, attestations: [null] }, 'malformed block: attestation'],
  ];
  for (const [raw, message] of cases)
    assert.deepEqual(
      refusal(() => checkBlockShape(raw)),
      { code: 'INVALID_BLOCK', message },
      message,
    );
  assert.equal(checkBlockShape(good), good);
});
