/** Incremental upload hashes agree with SHA-256 of the whole bytes whatever order chunks land and checks come in. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import { UploadHashes } from '../../../core/uploadHashes.ts';
import type { Upload } from '../../../core/upload.ts';

test('the digest is SHA-256 of the concatenated chunks, or the first missing index, under any landing order', () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ minLength: 1, maxLength: 90 }), { minLength: 1, maxLength: 12 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.boolean(),
      (chunks, order, withLast) => {
        const all = Buffer.concat(chunks);
        const u = { id: 'x', txHash: 'h', owner: 'o', totalChunks: chunks.length, totalBytes: all.length } as Upload;
        const landed = new Map<number, string>();
        const hashes = new UploadHashes({ maxFailures: 1000 });
        const read = (i: number) => landed.get(i);
        const lastIndex = chunks.length - 1;
        // Land chunks in the given order (skipping the last one when it comes as a candidate), checking after each.
        for (const pick of [...order, ...chunks.keys()]) {
          const i = pick % chunks.length;
          if (withLast && i === lastIndex) continue;
          landed.set(i, Buffer.from(chunks[i]).toString('base64'));
          const last = withLast ? { id: 'x', index: lastIndex, data: Buffer.from(chunks[lastIndex]).toString('base64') } : undefined;
          const d = hashes.digest('blob', u, read, 0, last);
          const missing = [...chunks.keys()].find((k) => !landed.has(k) && !(withLast && k === lastIndex));
          if (missing === undefined) assert.deepEqual(d, { bytes: all.length, sha256: sha256Hex(all) });
          else assert.equal(d, missing);
        }
      },
    ),
  );
});

test('past maxFailures refused completions in the window a sender is RATE_LIMITED, and again allowed after it', () => {
  const hashes = new UploadHashes({ maxFailures: 2, windowMs: 1000 });
  const u = { id: 'x', txHash: 'h', owner: 'o', totalChunks: 1, totalBytes: 1 } as Upload;
  const read = () => 'AA==';
  hashes.failed('o', 0);
  hashes.failed('o', 10);
  assert.throws(() => hashes.digest('blob', u, read, 500), /refused in the last 1000 ms/);
  assert.deepEqual(hashes.digest('blob', { ...u, owner: 'p' }, read, 500), { bytes: 1, sha256: sha256Hex(Buffer.alloc(1)) });
  assert.deepEqual(hashes.digest('blob', u, read, 1011), { bytes: 1, sha256: sha256Hex(Buffer.alloc(1)) });
});
