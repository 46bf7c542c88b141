import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import { nextStateRoot } from '../../../core/stateRoot.ts';
import { commitDiff, removedIds } from '../../../core/state.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import { BLOBS } from '../../../core/tx/social/socialBlob.ts';
import { accountsProjection } from '../../../projections/accounts.ts';
import type { BlockEvent } from '../../../projections/events.ts';
import { DEV_GENESIS } from '../../helpers/coreSupport.ts';

const CHUNKS = BLOBS.CHUNKS;

test('a removal hides the record through nested overlays, survives merges and leaves the base on commit', () => {
  const { state } = genesisState(DEV_GENESIS);
  const first = new StateOverlay(state);
  first.put(CHUNKS, 'x:0', { data: 'AA==' });
  first.put(CHUNKS, 'x:1', { data: 'AQ==' });
  commitDiff(state, first.diff());
  assert.equal(state.records.blobChunks.size, 2);

  const block = new StateOverlay(state);
  const trial = new StateOverlay(block);
  trial.remove(CHUNKS, 'x:0');
  assert.equal(trial.get(CHUNKS, 'x:0'), undefined);
  assert.ok(block.get(CHUNKS, 'x:0'), 'the parent overlay still sees it until the trial merges');
  trial.mergeIntoParent();
  assert.equal(block.get(CHUNKS, 'x:0'), undefined);
  assert.deepEqual([...removedIds(block.diff(), CHUNKS)], ['x:0']);

  const again = new StateOverlay(block);
  again.put(CHUNKS, 'x:0', { data: 'Ag==' });
  again.mergeIntoParent();
  assert.deepEqual(block.get(CHUNKS, 'x:0'), { data: 'Ag==' }, 'a put after a removal brings the record back');
  assert.equal(block.diff().removed, undefined, 'and the removal leaves the diff');
  block.remove(CHUNKS, 'x:0');
  block.remove(CHUNKS, 'x:1');
  commitDiff(state, block.diff());
  assert.equal(state.records.blobChunks.size, 0);
});

test('the state root hashes a removal as a null leaf, and the accounts rows delete it', () => {
  const { state, block } = genesisState(DEV_GENESIS);
  const put = new StateOverlay(state);
  put.put(CHUNKS, 'x:0', { data: 'AA==' });
  commitDiff(state, put.diff());
  const untouched = new StateOverlay(state).diff();
  const removal = new StateOverlay(state);
  removal.remove(CHUNKS, 'x:0');
  const diff = removal.diff();
  assert.notEqual(nextStateRoot(block.stateRoot, diff), nextStateRoot(block.stateRoot, untouched));
  const ev = { type: 'block', block: { index: 2 }, diff, balances: [], emitted: 0n, replay: false } as unknown as BlockEvent;
  const { ops } = accountsProjection.apply(state, ev);
  assert.ok(ops?.some((op) => op.type === 'del' && op.key === 'bc:x:0'));
  assert.equal(state.records.blobChunks.size, 0);
});
