/**
 * A read model's restore never leaves a LevelDB iterator open: an open iterator pins the version
 * it was opened on, so the table files compacted after it are never deleted (a two-hour soak saw
 * a follower's data dir and RSS grow without bound from chat's restore, which with a bounded
 * cache reads nothing and returned without closing the iterator it was given).
 */
import { ClassicLevel } from 'classic-level';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { openTestChain, type TestChain } from '../../helpers/testChain.ts';

// Every native iterator attached to the root database and not yet detached (closed): a
// sublevel's iterator wraps one of these.
const open = new Set<object>();
const proto = ClassicLevel.prototype as unknown as { attachResource(r: object): void; detachResource(r: object): void };
const attach = proto.attachResource;
const detach = proto.detachResource;
proto.attachResource = function (this: unknown, r: object) {
  if (/Iterator$/.test(r.constructor.name)) open.add(r);
  return attach.call(this, r);
};
proto.detachResource = function (this: unknown, r: object) {
  open.delete(r);
  return detach.call(this, r);
};

let chain: TestChain | null = null;
after(async () => {
  await chain?.destroy();
});

test('opening, reopening and reorganising a node with bounded caches leaves no iterator open', async () => {
  chain = await openTestChain({ recordCache: 64, accountCache: 64 });
  const idle = async (what: string) => {
    // Reads in flight finish within a turn or two of the event loop; a leaked iterator stays.
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(open.size, 0, `${open.size} iterators left open after ${what}: ${[...open].map((r) => r.constructor.name).join(', ')}`);
  };
  await idle('the first open');
  await chain.node.submitTx(chain.transfer(0, 'ox000000000000000000000000000000000000dead', '5'));
  await chain.produce(3);
  await idle('three blocks');
  const dir = chain.dir;
  await chain.close();
  chain = await openTestChain({ dir, recordCache: 64, accountCache: 64 });
  await idle('a reopen (every read model restored)');
  // A rollback reloads the states of the read models it steps back (the same restore).
  await chain.node.runner.rollbackTo(1);
  await idle('a rollback');
});
