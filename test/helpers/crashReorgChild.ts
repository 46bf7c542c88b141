/**
 * A child process for the crash matrix (run with `--import crashHook.ts`): node A on the data dir
 * given as argv[2] holds 3 blocks of transfers and 2 pending ones; node B, from A's block 1,
 * builds a better 4-block branch. With the hook armed, A reorganises onto it, produces a block and
 * closes: a kill lands before one of those writes. Stdout, written synchronously: `before`,
 * `target` (index hash), `acked` (hashes of every transaction A acknowledged), then `done`.
 */
import { writeSync } from 'node:fs';
import { DEV_KEYS, openTestChain } from './testChain.ts';

const say = (line: string) => writeSync(1, `${line}\n`);
const crash = (globalThis as unknown as { ombraCrash: { arm(): void; disarm(): void } }).ombraCrash;

const a = await openTestChain({ dir: process.argv[2] });
const b = await openTestChain();
const acked: string[] = [];
const submit = async (tx: Record<string, unknown>) => acked.push((await a.node.submitTx(tx)).hash);
for (let i = 0; i < 3; i++) {
  await submit(a.transfer(1, DEV_KEYS[9].address, 1n));
  await submit(a.transfer(2, DEV_KEYS[9].address, 2n));
  await a.produce(1);
}
await submit(a.transfer(1, DEV_KEYS[9].address, 3n));
await submit(a.transfer(2, DEV_KEYS[9].address, 4n));
// B shares A's block 1, then builds four blocks of its own in later slots.
b.advance(Math.max(0, a.now() - b.now()));
await b.node.importBlocks(await a.node.store.blocksIn(1, 1));
b.advance(b.genesis.blockTimeMs * 10);
for (let i = 0; i < 4; i++) {
  await b.node.submitTx(b.transfer(3, DEV_KEYS[8].address, 5n));
  await b.produce(1);
}
a.advance(Math.max(0, b.now() - a.now()));
const branch = await b.node.store.blocksIn(2, 5);
say(`before ${a.node.head().index} ${a.node.head().hash}`);
say(`target ${b.node.head().index} ${b.node.head().hash}`);
say(`acked ${acked.join(',')}`);
await b.destroy();

crash.arm();
await a.node.reorg(1, branch);
await a.produce(1);
await a.close();
crash.disarm();
say('done');
process.exit(0);
