/**
 * The live events as the explorer reads them (api/explorer/chainEvents.ts): a block's, a
 * reorg's and a pending transaction's data (as the node's streams send them) are taken only in the shape the pages use; anything
 * else is no event of that kind.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockOf, pendingOf, reorgFrom } from '../../../../api/explorer/chainEvents.ts';
import { blockFrame, reorgFrame, txData } from '../../../../api/streams/sseFrames.ts';
import type { Block } from '../../../../core/block.ts';
import type { SignedTx } from '../../../../core/tx/handler.ts';
import type { ChainEvent } from '../../../../client/browser.ts';

/** The event a frame of the node's stream carries, as the client parses it. */
function eventOf(frame: Uint8Array): ChainEvent {
  const text = new TextDecoder().decode(frame);
  const event = /^event: (.*)$/m.exec(text)?.[1] ?? '';
  return { event, data: JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? 'null') };
}

const tx = { type: 'TRANSFER', from: `ox${'a'.repeat(40)}`, hash: 'ab'.repeat(32), to: `ox${'b'.repeat(40)}`, amount: '5' };
const block = { index: 7, hash: 'cd'.repeat(32), timestamp: 1_800_000_000_000, proposer: `ox${'c'.repeat(40)}`, transactions: [tx] };

test('a block event gives its block, with its transactions', () => {
  const stored: Block = {
    ...block,
    transactions: [{ ...tx, nonce: 0, timestamp: 1, publicKey: 'ee', signature: 'ff' }],
    previousHash: '00',
    txRoot: '11',
    stateRoot: '22',
    tokensBurned: '0',
    tokensConsumed: '0',
    attestations: [],
  };
  assert.deepEqual(blockOf(eventOf(blockFrame(stored))), { ...block, transactions: stored.transactions });
  assert.deepEqual(blockOf({ event: 'block', data: block }), block);
  assert.equal(blockOf({ event: 'tx', data: block }), null);
  assert.equal(blockOf({ event: 'block', data: { ...block, index: '7' } }), null);
  assert.equal(blockOf({ event: 'block', data: { ...block, transactions: [{ type: 'TRANSFER' }] } }), null);
  assert.equal(blockOf({ event: 'block', data: null }), null);
});

test('a reorg gives the first height it drops; a tx event its transaction', () => {
  assert.equal(
    reorgFrom(
      eventOf(
        reorgFrame({ type: 'reorg', fromHeight: 12, oldHead: { index: 14, hash: 'a' }, newHead: { index: 13, hash: 'b' }, dropped: [] }),
      ),
    ),
    12,
  );
  assert.equal(reorgFrom({ event: 'reorg', data: {} }), null);
  assert.equal(reorgFrom({ event: 'block', data: { fromHeight: 1 } }), null);
  // As the node sends it (api/streams/sseFrames.ts).
  const signed: SignedTx = { ...tx, nonce: 0, timestamp: 1, publicKey: 'ee', signature: 'ff' };
  assert.deepEqual(pendingOf({ event: 'tx', data: txData(signed) }), { txType: 'TRANSFER', hash: tx.hash });
  assert.equal(pendingOf({ event: 'tx', data: tx }), null);
  assert.equal(pendingOf({ event: 'block', data: { txType: 'TRANSFER', hash: 'ab' } }), null);
});
