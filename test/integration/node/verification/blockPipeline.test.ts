/** The catch-up pipeline verifies every signature ahead and falls back to inline checks for a block that fails. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../../core/block.ts';
import { batchesOf, blockItems, runPipeline } from '../../../../node/verification/blockPipeline.ts';
import { VerifyPool } from '../../../../node/verification/verifyPool.ts';
import { DEV_KEYS, openTestChain } from '../../../helpers/testChain.ts';

test('verdicts: true for blocks whose transactions and attestation verify, false for a forged attestation or transaction', async () => {
  const c = await openTestChain();
  const pool = new VerifyPool({ workers: 2 });
  try {
    for (let i = 0; i < 4; i++) {
      await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 10n + BigInt(i)));
      await c.produce();
    }
    const blocks = await c.node.store.blocksIn(1, 4);
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    blocks[1] = { ...blocks[1], attestations: [{ ...blocks[1].attestations[0], signature: flip(blocks[1].attestations[0].signature) }] };
    blocks[2] = { ...blocks[2], transactions: [{ ...blocks[2].transactions[0], signature: flip(blocks[2].transactions[0].signature) }] };
    const verdicts: [number, boolean][] = [];
    let batchesEnded = 0;
    await runPipeline(
      batchesOf(blockItems(blocks), { maxBlocks: 2, maxTxs: 100 }),
      pool,
      ({ block }, verified) => {
        verdicts.push([(block as Block).index, verified]);
      },
      async () => {
        batchesEnded++;
      },
    );
    assert.deepEqual(verdicts, [
      [1, true],
      [2, false],
      [3, false],
      [4, true],
    ]);
    assert.equal(batchesEnded, 2);
  } finally {
    await pool.close();
    await c.destroy();
  }
});

test('an apply that throws stops the pipeline with that error, after the blocks before it', async () => {
  const c = await openTestChain();
  try {
    await c.produce(3);
    const seen: number[] = [];
    const err = await runPipeline(
      batchesOf(blockItems(await c.node.store.blocksIn(1, 3)), { maxBlocks: 1, maxTxs: 1 }),
      null,
      ({ block }) => {
        if ((block as Block).index === 2) throw new Error('fault at 2');
        seen.push((block as Block).index);
      },
    ).catch((e: Error) => e);
    assert.match(String(err), /fault at 2/);
    assert.deepEqual(seen, [1]);
  } finally {
    await c.destroy();
  }
});

/** Runs five blocks from a source that then fails, in batches of `maxBlocks`: what was applied and committed, and the fault. */
async function failingSourceRun(maxBlocks: number, lookahead: boolean) {
  async function* source() {
    for (let i = 1; i <= 5; i++) yield { index: i } as unknown as Block;
    throw new Error('peer hung up');
  }
  const applied: number[] = [];
  const commits: number[] = [];
  const err = await runPipeline(
    batchesOf(blockItems(source()), { maxBlocks }),
    null,
    ({ block }) => {
      applied.push((block as Block).index);
    },
    async () => {
      commits.push(applied.length);
    },
    { lookahead },
  ).catch((e: Error) => e);
  return { err, applied, commits };
}

test('a source failing midway still has every block it delivered applied and committed, then the fault rethrown', async () => {
  const { err, applied, commits } = await failingSourceRun(256, false);
  assert.match(String(err), /peer hung up/);
  assert.deepEqual(applied, [1, 2, 3, 4, 5]);
  assert.deepEqual(commits, [5]);
});

test("with lookahead, each batch is followed by the next batch's top once all its signatures passed, and by nothing after a forged one or at the end", async () => {
  const c = await openTestChain();
  const pool = new VerifyPool({ workers: 2 });
  try {
    for (let i = 0; i < 6; i++) {
      await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, 10n + BigInt(i)));
      await c.produce();
    }
    const blocks = await c.node.store.blocksIn(1, 6);
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    blocks[4] = { ...blocks[4], transactions: [{ ...blocks[4].transactions[0], signature: flip(blocks[4].transactions[0].signature) }] };
    const seen: string[] = [];
    await runPipeline(
      batchesOf(blockItems(blocks), { maxBlocks: 2, maxTxs: 100 }),
      pool,
      ({ block }, verified) => {
        seen.push(`${(block as Block).index}${verified ? '' : '!'}`);
      },
      async (ahead) => {
        seen.push(`ahead ${ahead.verifiedTop ?? '-'}`);
      },
      { lookahead: true },
    );
    // Batches 1-2, 3-4, 5-6: block 5's forged transaction keeps the second batch from vouching for the third.
    assert.deepEqual(seen, ['1', '2', 'ahead 4', '3', '4', 'ahead -', '5!', '6', 'ahead -']);
  } finally {
    await pool.close();
    await c.destroy();
  }
});

test('with lookahead, a source failing midway still has every batch it delivered applied first', async () => {
  const { err, applied, commits } = await failingSourceRun(2, true);
  assert.match(String(err), /peer hung up/);
  assert.deepEqual(applied, [1, 2, 3, 4, 5]);
  assert.deepEqual(commits, [2, 4, 5]);
});

test('with lookahead, a batch is applied once the next one is in hand, without waiting for the one after it', async () => {
  let release: () => void = () => undefined;
  const stalled = new Promise<void>((resolve) => {
    release = resolve;
  });
  async function* source() {
    yield { index: 1 } as unknown as Block;
    yield { index: 2 } as unknown as Block;
    // A slow peer: the third block comes only when the test lets it.
    await stalled;
    yield { index: 3 } as unknown as Block;
  }
  const commits: number[] = [];
  let firstCommit: () => void = () => undefined;
  const committed = new Promise<void>((resolve) => {
    firstCommit = resolve;
  });
  const run = runPipeline(
    batchesOf(blockItems(source()), { maxBlocks: 1 }),
    null,
    () => undefined,
    async () => {
      commits.push(commits.length + 1);
      firstCommit();
    },
    { lookahead: true },
  );
  const first = await Promise.race([committed.then(() => 'committed'), new Promise((r) => setTimeout(() => r('waited'), 2000))]);
  assert.equal(first, 'committed', 'block 1 waited for block 3');
  release();
  await run;
  assert.deepEqual(commits, [1, 2, 3]);
});
