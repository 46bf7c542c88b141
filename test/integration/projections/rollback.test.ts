import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';
import { rollBackAcrossRestart } from '../../helpers/rollbackCheck.ts';

test('rolling read models back through the undo log gives exactly what they were at that height, across a restart', async () => {
  const c = await openTestChain();
  const dumps: Record<number, unknown> = {};
  try {
    dumps[0] = await c.node.runner.dump();
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
              nonce: c.node.mempool.pending(k.address).count + (await c.queries.account(k.address)).nonce,
              timestamp: c.now(),
            },
            k,
          ),
        );
      }
      await c.produce();
      dumps[h] = await c.node.runner.dump();
    }
  } catch (e) {
    await c.destroy().catch(() => undefined);
    throw e;
  }
  await rollBackAcrossRestart(
    c,
    (x) => x.node.runner.dump(),
    dumps,
    9,
    3,
    (again) => assert.equal(again.node.state().records.miners.size, 0),
  );
});
