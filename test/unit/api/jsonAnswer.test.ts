/** A streamed JSON answer is written in bounded pieces that make the whole text, surrogate pairs kept whole. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utf8Pieces } from '../../../api/jsonAnswer.ts';

test('a megabyte block is written in pieces of at most 48 KiB; the pieces decode to the same text, emoji split nowhere', () => {
  for (const text of ['', 'x', 'a'.repeat(1024 * 1024 + 7), `${'b'.repeat(16 * 1024 - 1)}😀${'é€😀'.repeat(40_000)}`]) {
    const pieces = [...utf8Pieces(text)];
    // Before: one piece a block (a 3 MB block, 3 MB of bytes held beside its text by a stalled reader).
    assert.ok(
      pieces.every((p) => p.byteLength <= 48 * 1024),
      `largest ${Math.max(0, ...pieces.map((p) => p.byteLength))}`,
    );
    assert.equal(Buffer.concat(pieces).toString('utf8'), text);
    // Each piece is valid UTF-8 on its own: no pair was cut in two.
    for (const p of pieces) assert.doesNotMatch(new TextDecoder().decode(p), /\uFFFD/);
  }
});
