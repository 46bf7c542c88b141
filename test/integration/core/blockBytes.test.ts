/** The block byte limit is consensus: proposers close a block when it is full, receivers refuse a bigger one. */
import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { txBytes } from '../../../core/applyBlock.ts';
import { MAX_BLOCK_TX_BYTES } from '../../../core/genesis.ts';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';

test('a proposer fills a block up to the byte limit and leaves the rest for the next block; a bigger block is refused', async () => {
  const c = await openTestChain();
  const peer = await openTestChain();
  try {
    // 16 KiB prompts: about 200 of them pass the 3 MiB limit.
    const prompt = 'x'.repeat(16_000);
    const sent: string[] = [];
    for (let k = 1; k <= 9; k++) {
      for (let nonce = 0; nonce < 25; nonce++) {
        const key = DEV_KEYS[k];
        const tx = signTx(
          { type: 'TASK_SUBMIT', from: key.address, taskType: 'chat', prompt, fee: '10000', timeoutMs: 60_000, nonce, timestamp: c.now() },
          key,
        );
        await c.node.submitTx(tx);
        sent.push(tx.hash as string);
      }
    }
    await c.produce();
    const first = (await c.node.store.block(1))!;
    const size = txBytes(first.transactions);
    assert.ok(size <= MAX_BLOCK_TX_BYTES, `block 1 takes ${size} bytes`);
    assert.ok(first.transactions.length < sent.length, 'not everything fits one block');
    assert.ok(size + 16_000 > MAX_BLOCK_TX_BYTES, 'the block is full');
    await c.produce();
    const second = (await c.node.store.block(2))!;
    assert.equal(first.transactions.length + second.transactions.length, sent.length, 'the rest lands in the next block');
    // A receiver refuses a block whose transactions exceed the limit, before anything else.
    const fat = { ...second, transactions: [...second.transactions, ...first.transactions] };
    peer.advance(c.now() - peer.now());
    await peer.node.importBlock(first);
    const err = await peer.node.importBlock(fat).catch((e: Error) => e);
    assert.match(String(err), literal(new RegExp(`more than ${MAX_BLOCK_TX_BYTES}`)));
  } finally {
    await c.destroy();
    await peer.destroy();
  }
});
