/**
 * The bench's verify floor: the same blocks read and verified by the node's pipeline and pool,
 * nothing applied. It must check every signature, so a block with a broken one is no floor.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Block } from '../../../core/block.ts';
import { ChainStore } from '../../../node/store/chainStore.ts';
import { tempDir } from '../../helpers/testChain.ts';
import { scaleChain } from '../../bench/scaleChain.ts';
import { verifyFloor } from '../../bench/verifyFloor.ts';
import { errorMessage } from '../../../core/errors.ts';

/** 40 blocks of one transfer each (built in a temporary cache). */
async function smallChain(dir: string): Promise<Block[]> {
  const { dir: chain } = await scaleChain(40, { perBlock: 1, cacheDir: dir });
  const store = await ChainStore.open(join(chain, 'db'));
  try {
    return await store.blocksIn(1, 40);
  } finally {
    await store.close();
  }
}

test('verifies every block of a chain and reports its time by thread', async () => {
  const tmp = tempDir('ombra-floor-');
  try {
    const blocks = await smallChain(tmp.dir);
    const run = await verifyFloor(blocks, { maxBlocks: 16, lookahead: true });
    assert.ok(run.seconds > 0 && run.cpuSeconds > 0, JSON.stringify(run));
    assert.ok('main' in run.threads, JSON.stringify(run.threads));
  } finally {
    tmp.cleanup();
  }
});

test('refuses to give a floor when a signature fails, a transfer or an attestation', async () => {
  const tmp = tempDir('ombra-floor-');
  try {
    const blocks = await smallChain(tmp.dir);
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    const badTx = blocks.map((b, i) =>
      i === 7 ? { ...b, transactions: b.transactions.map((x) => ({ ...x, signature: flip(x.signature) })) } : b,
    );
    const badAttestation = blocks.map((b, i) =>
      i === 33 ? { ...b, attestations: b.attestations.map((a) => ({ ...a, signature: flip(a.signature) })) } : b,
    );
    for (const broken of [badTx, badAttestation]) {
      const err = await verifyFloor(broken, { maxBlocks: 16 }).catch((e: Error) => e);
      assert.ok(err instanceof Error);
      assert.match(errorMessage(err), /^1 blocks failed verification/);
    }
  } finally {
    tmp.cleanup();
  }
});
