import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { signTx } from '../../core/txCodec.ts';
import { DEV_KEYS, openTestChain } from '../helpers/testChain.ts';

const t = suite('projection rollback');

t('rolling read models back through the undo log gives exactly what they were at that height, across a restart', async () => {
  const c = await openTestChain();
  try {
    const dumps: Record<number, unknown> = { 0: await c.node.runner.dump() };
    for (let h = 1; h <= 12; h++) {
      await c.node.submitTx(c.transfer(1 + (h % 5), DEV_KEYS[6 + (h % 3)].address, BigInt(h)));
      if (h === 4) {
        const k = DEV_KEYS[3];
        await c.node.submitTx(
          signTx(
            {
              type: 'MINER_REGISTER',
              from: k.address,
              name: 'm',
              capabilities: ['chat'],
              fee: '10',
              nonce: c.node.mempool.pending(k.address).count + c.queries.account(k.address).nonce,
              timestamp: c.now(),
            },
            k,
          ),
        );
      }
      await c.produce();
      dumps[h] = await c.node.runner.dump();
    }
    assert.ok(await c.node.runner.rollbackTo(9));
    assert.equal(await c.node.runner.dump(), dumps[9]);
    // The undo records are durable: after a restart the log still reaches back.
    await c.close();
    const again = await openTestChain({ dir: c.dir });
    try {
      assert.ok(await again.node.runner.rollbackTo(3));
      assert.equal(await again.node.runner.dump(), dumps[3]);
      assert.is(again.node.state().records.miners.size, 0);
    } finally {
      await again.destroy();
    }
  } catch (e) {
    await c.destroy().catch(() => undefined);
    throw e;
  }
});

t.run();
