/** Transactions read back from the chain: the signed transaction untouched, plus its placement. */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { PLACEMENT_FIELDS } from '../../../core/confirmedTx.ts';
import { TX_HANDLERS } from '../../../core/tx/registry.ts';
import { signTx, txHash } from '../../../core/txCodec.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { get, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;

/** True when every signed field of `sent` is served unchanged and the served form re-hashes to its hash. */
function untouched(served: Record<string, unknown>, sent: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(sent)) assert.deepEqual(served[k], v, `${sent.type}.${k} is served as signed`);
  assert.equal(txHash(served), served.hash, `${sent.type} re-hashes to its hash`);
}

test('a BURN keeps its signed blockIndex on every read; the including height is served as blockHeight', () =>
  withChain(async (c) => {
    await c.produce(3);
    const burn = signTx(
      { type: 'BURN', from: A(3), amount: '777', reason: 'slashing', blockIndex: 1, tokensConsumed: 0, nonce: 0, timestamp: c.now() },
      DEV_KEYS[3],
    );
    await c.node.submitTx(burn);
    await c.produce();
    const height = c.node.head().index;
    assert.ok(height > 1, 'the burn lands after the block it names');
    const reads = [
      (await get(c, `/api/chain/tx/${burn.hash}`)).body,
      (await get(c, `/api/chain/search/${burn.hash}`)).body.find((r: any) => r.type === 'tx').data,
      (await get(c, `/api/chain/account/${A(3)}`)).body.recentTxs[0],
      (await get(c, `/api/address/${A(3)}/txs`)).body.txs[0],
    ];
    for (const served of reads) {
      untouched(served, burn);
      assert.equal(served.blockIndex, 1, 'the signed blockIndex stays');
      assert.equal(served.blockHeight, height, 'the placement is blockHeight');
      assert.equal(served.position, 0);
      assert.equal(served.blockHash, c.node.head().hash);
    }
  }));

test('every transaction of the simulated chain is served with its signed fields untouched and re-hashes to its hash', () => {
  const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return withChain(
    async (c) => {
      const types = new Set<string>();
      for (const b of lines.slice(2)) {
        await c.node.importBlock(b);
        for (const [i, tx] of b.transactions.entries()) {
          const served = (await get(c, `/api/chain/tx/${tx.hash}`)).body;
          untouched(served, tx);
          assert.deepEqual([served.blockIndex, served.blockHeight, served.blockHash, served.position], [b.index, b.index, b.hash, i]);
          types.add(tx.type);
        }
      }
      assert.ok(types.size >= 30, `the fixture covers most types (${types.size})`);
    },
    { genesis: parseGenesis(lines[0].genesis) },
  );
});

test('no transaction type has a field named blockHeight: the placement always has a name to be served under', () => {
  assert.ok(PLACEMENT_FIELDS.includes('blockHeight'));
  for (const h of TX_HANDLERS.values()) assert.ok(!('blockHeight' in h.schema.fields), h.schema.type);
});
