/** The verified mark: moved in the blocks' batch over checked blocks only, cut back with the log. */
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../../core/block.ts';
import type { Genesis } from '../../../../core/genesis.ts';
import { ChainStore } from '../../../../node/store/chainStore.ts';
import { DIGEST_EVERY, nextDigest, VERIFIED_SEED } from '../../../../node/verification/verifiedLog.ts';
import { tempDir } from '../../../helpers/testChain.ts';

/** A stand-in block: the store checks only the index and the link. */
const fake = (index: number): Block => ({ index, hash: `h${index}`, previousHash: `h${index - 1}`, n: index * 7 }) as unknown as Block;

/** The digest of blocks 1..height as stored. */
async function digestOf(store: ChainStore, height: number): Promise<string> {
  let d = VERIFIED_SEED;
  for (const text of await store.blocksJsonIn(1, height)) d = nextDigest(d, text);
  return d;
}

test('checked appends move the mark with a digest of the stored bytes; trusted ones and cuts leave it where replay can check it', async () => {
  const tmp = tempDir('ombra-verified-');
  const dir = join(tmp.dir, 'db');
  try {
    let store = await ChainStore.open(dir);
    await store.init({} as Genesis, fake(0));
    assert.deepEqual(store.verified.mark, { height: 0, digest: VERIFIED_SEED });
    const top = 2 * DIGEST_EVERY + 500;
    for (let from = 1; from <= top; from += 100)
      await store.appendMany(Array.from({ length: Math.min(100, top - from + 1) }, (_, i) => fake(from + i)));
    assert.equal(store.verified.mark.height, top);
    assert.equal(store.verified.mark.digest, await digestOf(store, top));
    assert.equal(await store.verified.keptAt(DIGEST_EVERY), await digestOf(store, DIGEST_EVERY));
    assert.equal(await store.verified.keptAt(2 * DIGEST_EVERY), await digestOf(store, 2 * DIGEST_EVERY));
    // A recent cut keeps the exact digest, and checked blocks after it extend it.
    await store.truncateTo(fake(top - 10));
    assert.deepEqual(store.verified.mark, { height: top - 10, digest: await digestOf(store, top - 10) });
    await store.replaceSuffix(top - 20, [fake(top - 19)]);
    assert.deepEqual(store.verified.mark, { height: top - 19, digest: await digestOf(store, top - 19) });
    await store.close();
    // After a restart the recent digests are gone: a cut falls back to the last kept one.
    store = await ChainStore.open(dir);
    assert.deepEqual(store.verified.mark, { height: top - 19, digest: await digestOf(store, top - 19) });
    await store.truncateTo(fake(2 * DIGEST_EVERY + 3));
    assert.deepEqual(store.verified.mark, { height: 2 * DIGEST_EVERY, digest: await digestOf(store, 2 * DIGEST_EVERY) });
    // Behind the head, checked blocks no longer move it; neither do trusted ones.
    await store.appendMany([fake(2 * DIGEST_EVERY + 4)]);
    assert.equal(store.verified.mark.height, 2 * DIGEST_EVERY);
    await store.close();
    store = await ChainStore.open(dir);
    await store.truncateTo(fake(DIGEST_EVERY + 1));
    assert.equal(store.verified.mark.height, DIGEST_EVERY);
    assert.equal(await store.verified.keptAt(2 * DIGEST_EVERY), undefined, 'a kept digest above the cut goes with it');
    await store.truncateTo(fake(DIGEST_EVERY));
    await store.appendMany([fake(DIGEST_EVERY + 1), fake(DIGEST_EVERY + 2)], { trusted: [false, true] });
    assert.deepEqual(store.verified.mark, { height: DIGEST_EVERY + 1, digest: await digestOf(store, DIGEST_EVERY + 1) });
    await store.appendMany([fake(DIGEST_EVERY + 3)]);
    assert.equal(store.verified.mark.height, DIGEST_EVERY + 1);
    await store.close();
  } finally {
    tmp.cleanup();
  }
});
