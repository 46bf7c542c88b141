import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attest, blockHash, type Block } from '../../../core/block.ts';
import { checkAnswer, isPeerFault, NotHeld, PeerFault, Refusal, sealFault } from '../../../p2p/answerCheck.ts';
import { DEV_KEYS, openTestChain } from '../../helpers/testChain.ts';

/** Blocks 0..6 of a real dev chain with a transfer in each. */
async function realChain(): Promise<{ blocks: Block[]; genesis: Parameters<typeof checkAnswer>[3] }> {
  const c = await openTestChain();
  try {
    for (let i = 1; i <= 6; i++) {
      await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, BigInt(i)));
      await c.produce(1);
    }
    return { blocks: await c.node.store.blocksIn(0, 6), genesis: c.genesis };
  } finally {
    await c.destroy();
  }
}

const copy = (b: Block[]): Block[] => structuredClone(b);

test('an honest answer passes, whole or as a prefix, genesis included', async () => {
  const { blocks, genesis } = await realChain();
  assert.equal(checkAnswer({ blocks: blocks.slice(1) }, 1, 6, genesis).length, 6);
  assert.equal(checkAnswer({ blocks: blocks.slice(2, 4) }, 2, 6, genesis).length, 2);
  assert.equal(checkAnswer({ blocks: blocks.slice(0, 3) }, 0, 500, genesis).length, 3);
  assert.equal(sealFault(blocks[3], genesis), null);
});

test('any forged, re-signed, unlinked, reordered or surplus block is a PeerFault; a refusal is not', async () => {
  const { blocks, genesis } = await realChain();
  const forgeries: ((b: Block[]) => unknown)[] = [
    (b) => {
      b[1].timestamp += 1; // header no longer hashes
    },
    (b) => {
      b[2].previousHash = b[0].hash;
      b[2].hash = blockHash(b[2]); // hashes, but no longer links
    },
    (b) => {
      // Re-hashed and re-signed by a key that owns no slot.
      const last = b[b.length - 1];
      last.proposer = DEV_KEYS[9].address;
      last.hash = blockHash(last);
      last.attestations = [attest(last.hash, DEV_KEYS[9])];
    },
    (b) => {
      b[b.length - 1].attestations[0].signature = 'ab'.repeat(64);
    },
    (b) => b.reverse(),
    (b) => b.push(b[b.length - 1]),
    (b) => b.splice(1, 1),
    (b) => {
      (b[0] as unknown as { extra: number }).extra = 1;
    },
  ];
  fc.assert(
    fc.property(fc.integer({ min: 0, max: forgeries.length - 1 }), fc.integer({ min: 3, max: 6 }), (k, n) => {
      const answer = copy(blocks.slice(1, n + 1));
      forgeries[k](answer);
      assert.throws(
        () => checkAnswer({ blocks: answer }, 1, n, genesis),
        (e: unknown) => e instanceof PeerFault,
      );
    }),
  );
  for (const junk of [undefined, null, 'blocks', { blocks: 'x' }, { blocks: [] }])
    assert.throws(
      () => checkAnswer(junk, 1, 3, genesis),
      (e: unknown) => isPeerFault(e),
    );
  assert.throws(
    () => checkAnswer({ error: 'too many sync requests; slow down' }, 1, 3, genesis),
    (e: unknown) => !isPeerFault(e),
  );
});

test('a refusal with heldFrom above the range start is NotHeld (no fault, no strike); at or below it, an ordinary refusal', async () => {
  const { genesis } = await realChain();
  const refusal = (answer: unknown, from: number) => {
    try {
      checkAnswer(answer, from, from + 9, genesis);
    } catch (e) {
      return e;
    }
    throw new Error('accepted');
  };
  const notHeld = refusal({ error: 'this node holds blocks from 26 only', heldFrom: 26 }, 1);
  assert.ok(notHeld instanceof NotHeld);
  assert.equal((notHeld as NotHeld).first, 26);
  assert.ok(!isPeerFault(notHeld));
  // A peer cannot dodge a strike for a range it claims to hold.
  assert.ok(refusal({ error: 'no', heldFrom: 26 }, 26) instanceof Refusal);
  assert.ok(refusal({ error: 'no', heldFrom: 'x' }, 1) instanceof Refusal);
});
