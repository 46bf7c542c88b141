import { DEV_KEYS, openTestChain } from './helpers/testChain.ts';
const a = await openTestChain();
const b = await openTestChain();
try {
  const traffic = async (c: any, tag: string) => { await c.node.submitTx(c.transfer(1, `ox${`${tag}0`.padEnd(40, '7')}`, 1n)); await c.produce(); await c.produce(); };
  await traffic(a, 'a');
  b.advance(b.genesis.blockTimeMs * 40);
  await traffic(b, 'b');
  await b.produce(Math.max(1, a.node.head().index + 2 - b.node.head().index));
  a.advance(Math.max(0, b.now() - a.now()));
  await a.node.reorg(0, await b.node.store.blocksIn(1, b.node.head().index));
  console.log('nonce', a.node.state().accounts.get(DEV_KEYS[1].address)?.nonce, a.node.mempool.list().length);
  await traffic(a, 'c');
  console.log('ok');
} finally { await a.destroy(); await b.destroy(); }
