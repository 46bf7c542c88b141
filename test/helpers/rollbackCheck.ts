/** Rolling read models back through the undo log, before and after a restart. */
import assert from 'node:assert/strict';
import { openTestChain, type TestChain } from './testChain.ts';

/**
 * Rolls `c`'s read models back to `first` and checks `read` against `expected[first]`, restarts a
 * node on its data dir (the undo records are durable) and does the same for `second`, then runs
 * `also` on the restarted node. Destroys both nodes, whatever happens.
 */
export async function rollBackAcrossRestart(
  c: TestChain,
  read: (c: TestChain) => Promise<unknown>,
  expected: Record<number, unknown>,
  first: number,
  second: number,
  also: (again: TestChain) => void = () => undefined,
): Promise<void> {
  try {
    assert.ok(await c.node.runner.rollbackTo(first));
    assert.deepEqual(await read(c), expected[first]);
    await c.close();
    const again = await openTestChain({ dir: c.dir });
    try {
      assert.ok(await again.node.runner.rollbackTo(second));
      assert.deepEqual(await read(again), expected[second]);
      also(again);
    } finally {
      await again.destroy();
    }
  } catch (e) {
    await c.destroy().catch(() => undefined);
    throw e;
  }
}
