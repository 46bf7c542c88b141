/** A peer's `heldFrom` holds it to its word: the same first block is no contradiction, refusing blocks at or above it is. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeldFromNotes } from '../../../p2p/heldFromNotes.ts';

test('an honest checkpoint peer names the same first block every time; a liar refuses what it said it holds', () => {
  const notes = new HeldFromNotes(10_000);
  assert.ok(notes.holds('honest', 5, 0), 'nothing said yet');
  assert.equal(notes.note('honest', 100, 5, 0), null);
  assert.ok(!notes.holds('honest', 50, 1), 'below its first block, within the cooldown');
  assert.ok(notes.holds('honest', 100, 1), 'from its first block on');
  assert.ok(notes.holds('honest', 50, 10_000), 'asked again after the cooldown');
  assert.equal(notes.note('honest', 100, 60, 10_000), null, 'asked below its first block again: the same answer');
  assert.equal(notes.note('liar', 6, 5, 0), null);
  assert.match(notes.note('liar', 9, 8, 20_000) ?? '', /refused blocks from 8 after saying it holds them from 6/);
});
