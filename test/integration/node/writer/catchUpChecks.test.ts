/**
 * A rebuild from genesis with the transactions' stateless checks in the verify workers
 * (CatchUpOptions.checksInWorkers) folds the same read models as one with them on the main
 * thread, and refuses a stored block those checks fail with the same error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { Block } from '../../../../core/block.ts';
import { errorMessage } from '../../../../core/errors.ts';
import { heightKey } from '../../../../core/encoding.ts';
import { OmbraNode } from '../../../../node/node.ts';
import { ChainStore } from '../../../../node/store/chainStore.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../../helpers/testChain.ts';

/** A closed data dir of 8 blocks, transfers in blocks 2..5, and its read models as folded live. */
async function transferChain(dir: string): Promise<unknown> {
  const c = await openTestChain({ dir });
  try {
    await c.produce();
    for (let round = 0; round < 4; round++) {
      for (let i = 1; i <= 3; i++) await c.node.submitTx(c.transfer(i, DEV_KEYS[(i + round + 3) % 10].address, 100_000n + BigInt(round)));
      await c.produce();
    }
    await c.produce(3);
    return await c.node.runner.dump();
  } finally {
    await c.close();
  }
}

/** Every read model dropped and rebuilt from genesis; the dump, or the error. */
async function rebuild(dir: string, opts: { assumeValid: boolean; checksInWorkers: boolean }): Promise<unknown> {
  const node = await OmbraNode.open({ dbDir: join(dir, 'db'), start: false });
  try {
    await node.runner.resetAll();
    await node.catchUp(undefined, { verifySignatures: true, ...opts });
    return await node.runner.dump();
  } catch (e) {
    return { error: errorMessage(e) };
  } finally {
    await node.stop();
  }
}

test('the rebuild folds the same read models with the checks in the workers or on the main thread', async () => {
  const tmp = tempDir('ombra-catchup-checks-');
  try {
    const live = await transferChain(tmp.dir);
    for (const assumeValid of [true, false])
      for (const checksInWorkers of [true, false])
        assert.deepEqual(
          await rebuild(tmp.dir, { assumeValid, checksInWorkers }),
          live,
          `assumeValid ${assumeValid}, in workers ${checksInWorkers}`,
        );
  } finally {
    tmp.cleanup();
  }
});

test('a stored transaction with a field its type does not have is refused the same way by both', async () => {
  const tmp = tempDir('ombra-catchup-checks-bad-');
  try {
    await transferChain(tmp.dir);
    // No hash covers an extra field (the canonical payload leaves it out): only the shape check sees it.
    const store = await ChainStore.open(join(tmp.dir, 'db'));
    try {
      const b = structuredClone((await store.block(3)) as Block);
      Object.assign(b.transactions[1], { memo: 'x' });
      await store.blocks.put(heightKey(3), b);
    } finally {
      await store.close();
    }
    const answers = [];
    for (const checksInWorkers of [true, false]) {
      const dir = join(tmp.dir, `copy-${checksInWorkers}`);
      cpSync(join(tmp.dir, 'db'), join(dir, 'db'), { recursive: true });
      answers.push(await rebuild(dir, { assumeValid: false, checksInWorkers }));
    }
    assert.deepEqual(answers[0], answers[1]);
    assert.match(
      String((answers[0] as { error?: unknown }).error),
      /^block 3: invalid transaction: INVALID_PARAMS: TRANSFER\.memo is not a known field/,
    );
  } finally {
    tmp.cleanup();
  }
});
