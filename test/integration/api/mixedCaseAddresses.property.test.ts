/**
 * Addresses are case-insensitive: a signed transaction may carry any address field in any case.
 * Its hash and signature cover the bytes as sent (blocks keep them, reads serve them); the state,
 * the indexes and every read by address use the lower-case form. Through the HTTP API, and
 * through block import (the path blocks from peers take).
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx, txHash } from '../../../core/txCodec.ts';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';
import { assertError, get, postTx, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;

/** `address` with the characters `mask` marks upper-cased (the `ox` prefix included). */
const recase = (address: string, mask: boolean[]): string => [...address].map((ch, i) => (mask[i] ? ch.toUpperCase() : ch)).join('');
const mask = fc.array(fc.boolean(), { minLength: 42, maxLength: 42 });

test('a TRANSFER with from and to in any case is accepted, mined under the lower-case accounts, and served as sent', () =>
  withChain(async (c) => {
    const sent: Record<string, unknown>[] = [];
    let moved = 0n;
    await fc.assert(
      fc.asyncProperty(mask, mask, fc.bigInt({ min: 1n, max: 1000n }), async (fromMask, toMask, amount) => {
        const key = DEV_KEYS[1];
        const nonce = c.node.state().accounts.get(key.address)!.nonce + c.node.mempool.pending(key.address).count;
        const tx = signTx(
          {
            type: 'TRANSFER',
            from: recase(key.address, fromMask),
            to: recase(A(2), toMask),
            amount: String(amount),
            fee: '1000',
            nonce,
            timestamp: c.now(),
          },
          key,
        );
        const res = await postTx(c, tx);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        assert.equal(res.body.hash, tx.hash);
        sent.push(tx);
        moved += amount;
      }),
      { numRuns: 12 },
    );
    await c.produce();
    const balance = (await get(c, `/api/address/${A(2)}/balance`)).body.balance;
    assert.equal(BigInt(balance), 1_000_000_000_000n + moved, 'the lower-case account received every amount');
    assert.equal((await get(c, `/api/address/${A(2).toUpperCase().replace('OX', 'ox')}`)).body.balance, balance);
    assert.equal((await get(c, `/api/chain/account/${A(1)}`)).body.nonce, sent.length, 'the lower-case sender spent every nonce');
    const history = (await get(c, `/api/address/${A(2)}/txs?limit=100`)).body.txs;
    assert.deepEqual(history.map((x: any) => x.hash).sort(), sent.map((x) => x.hash).sort(), 'indexed under the lower-case recipient');
    for (const tx of sent) {
      const served = (await get(c, `/api/chain/tx/${tx.hash}`)).body;
      assert.deepEqual([served.from, served.to], [tx.from, tx.to], 'served as signed');
      assert.equal(txHash(served), tx.hash);
    }
    // A node that receives the blocks (sync, gossip) validates and applies them the same way.
    const other = await openTestChain();
    try {
      for (let i = 1; i <= c.node.head().index; i++) await other.node.importBlock((await c.node.store.block(i))!);
      assert.equal(other.node.state().accounts.get(A(2))!.balance.toString(), balance);
      assert.equal(other.node.head().stateRoot, c.node.head().stateRoot);
    } finally {
      await other.destroy();
    }
  }));

test('a from that is not the public key’s address in any case is still refused', () =>
  withChain(async (c) => {
    const tx = signTx(
      {
        type: 'BURN',
        from: A(2).toUpperCase(),
        amount: '10',
        reason: 'slashing',
        blockIndex: 0,
        tokensConsumed: 0,
        nonce: 0,
        timestamp: c.now(),
      },
      DEV_KEYS[1],
    );
    assertError(await postTx(c, tx), 422, 'VALIDATION_FAILED', "from doesn't derive from publicKey");
  }));
