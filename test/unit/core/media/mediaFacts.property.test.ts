/**
 * Hostile bytes: whatever the media parsers are given (random bytes, real files truncated, real
 * files with bytes changed, real headers followed by junk), they answer with facts or a
 * MediaError, never another exception, and they always return.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MediaError } from '../../../../core/media/bytes.ts';
import { type MediaFacts, mediaFacts } from '../../../../core/media/mediaFacts.ts';
import { FIXTURES } from '../../../helpers/mediaFixtures.ts';

/** Facts, or null for a MediaError; anything else thrown fails the property. */
function judge(bytes: Uint8Array): MediaFacts | null {
  try {
    const facts = mediaFacts(bytes);
    if ('width' in facts) assert.ok(facts.width >= 1 && facts.height >= 1);
    else assert.ok(facts.sampleRate >= 1 && Number.isSafeInteger(facts.durationMs) && facts.durationMs >= 0);
    return facts;
  } catch (e) {
    if (e instanceof MediaError) return null;
    throw e;
  }
}

const fixture = fc.constantFrom(...FIXTURES);
const MAGICS = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52],
  [0xff, 0xd8, 0xff],
  [...'RIFF\0\0\0\0WEBPVP8 '].map((c) => c.charCodeAt(0)),
  [...'RIFF\0\0\0\0WEBPVP8L'].map((c) => c.charCodeAt(0)),
  [...'RIFF\0\0\0\0WEBPVP8X'].map((c) => c.charCodeAt(0)),
  [...'RIFF\0\0\0\0WAVEfmt '].map((c) => c.charCodeAt(0)),
  [...'OggS\0\x02'].map((c) => c.charCodeAt(0)),
  [...'ID3\x04\0\0'].map((c) => c.charCodeAt(0)),
  [0xff, 0xfb, 0x90, 0x64],
  [0xff, 0xf3, 0x40, 0xc4],
];

test('random bytes are facts or a typed refusal', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2048 }), (b) => void judge(b)),
    { numRuns: 3000 },
  );
});

test('a known magic number followed by random bytes is facts or a typed refusal', () => {
  fc.assert(
    fc.property(fc.constantFrom(...MAGICS), fc.uint8Array({ maxLength: 1024 }), (magic, rest) => {
      const b = new Uint8Array(magic.length + rest.length);
      b.set(magic);
      b.set(rest, magic.length);
      judge(b);
    }),
    { numRuns: 3000 },
  );
});

test('every prefix of a real file is its facts or a typed refusal', () => {
  fc.assert(
    fc.property(fixture, fc.nat(), ({ bytes }, n) => void judge(bytes.subarray(0, n % (bytes.length + 1)))),
    { numRuns: 2000 },
  );
});

test('a real file with up to 8 bytes changed is facts or a typed refusal', () => {
  fc.assert(
    fc.property(
      fixture,
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }),
      ({ bytes }, edits) => {
        const b = bytes.slice();
        for (const [at, v] of edits) b[at % Math.min(b.length, 256)] = v; // headers live in the first bytes
        judge(b);
      },
    ),
    { numRuns: 3000 },
  );
});

test('a real file with bytes changed anywhere, cut or padded, is facts or a typed refusal', () => {
  fc.assert(
    fc.property(fixture, fc.nat(), fc.integer({ min: 0, max: 255 }), fc.integer({ min: -64, max: 64 }), ({ bytes }, at, v, delta) => {
      const b = new Uint8Array(Math.max(0, bytes.length + delta));
      b.set(bytes.subarray(0, b.length));
      if (b.length > 0) b[at % b.length] = v;
      judge(b);
    }),
    { numRuns: 2000 },
  );
});

test('an edit past the headers of a real file changes neither its format nor its image size', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...FIXTURES.filter((f) => 'width' in f.facts && f.bytes.length > 1024)),
      fc.nat(),
      ({ bytes, facts }, at) => {
        const b = bytes.slice();
        b[1024 + (at % (b.length - 1024))] ^= 0xff;
        assert.deepEqual(judge(b), facts);
      },
    ),
    { numRuns: 200 },
  );
});
