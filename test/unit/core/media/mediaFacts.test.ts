import { test } from 'node:test';
import { literal } from '../../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { MediaError } from '../../../../core/media/bytes.ts';
import { jpegSize, pngSize, webpSize } from '../../../../core/media/imageFacts.ts';
import { contentTypeOf, mediaFacts, sniffFormat } from '../../../../core/media/mediaFacts.ts';
import { mpegTiming } from '../../../../core/media/mpeg.ts';
import { oggTiming } from '../../../../core/media/ogg.ts';
import { wavTiming } from '../../../../core/media/wav.ts';
import { FIXTURES, fixture } from '../../../helpers/mediaFixtures.ts';
import { errorMessage } from '../../../../core/errors.ts';

const refuses = (f: () => unknown, pattern: RegExp) => {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof MediaError);
    assert.equal((e as MediaError).code, 'VALIDATION_FAILED');
    assert.match(errorMessage(e), literal(pattern));
    return;
  }
  assert.fail('no refusal');
};

for (const { name, facts, bytes } of FIXTURES) {
  test(`${name} parses to ${JSON.stringify(facts)}`, () => {
    assert.deepEqual(mediaFacts(bytes), facts);
    assert.equal(sniffFormat(bytes), facts.format);
  });
}

test('every format is covered by at least one fixture, and the fixtures stay under 300 KB', () => {
  const formats = new Set(FIXTURES.map((f) => f.facts.format));
  assert.deepEqual([...formats].sort(), ['audio:mpeg', 'audio:ogg', 'audio:wav', 'image:jpeg', 'image:png', 'image:webp']);
  assert.ok(FIXTURES.reduce((n, f) => n + f.bytes.length, 0) < 300_000);
});

test('each parser refuses the other formats with a typed refusal', () => {
  const parsers = { png: pngSize, jpeg: jpegSize, webp: webpSize, wav: wavTiming, mpeg: mpegTiming, ogg: oggTiming };
  for (const { facts, bytes } of FIXTURES) {
    for (const [kind, parse] of Object.entries(parsers)) {
      if (facts.format.endsWith(`:${kind}`)) continue;
      refuses(() => parse(bytes), /./);
    }
  }
});

test('bytes of no known format are refused as such', () => {
  refuses(() => mediaFacts(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')), /not a PNG, JPEG, WebP, WAV/);
  refuses(() => mediaFacts(new Uint8Array(0)), /not a PNG/);
  assert.equal(sniffFormat(new Uint8Array([0x52, 0x49, 0x46, 0x46])), null);
});

test('the served content type of a format is its MIME type', () => {
  assert.equal(contentTypeOf('image:jpeg'), 'image/jpeg');
  assert.equal(contentTypeOf('audio:mpeg'), 'audio/mpeg');
  assert.equal(contentTypeOf('audio:ogg'), 'audio/ogg');
});

test('a JPEG whose first scan comes before any frame header is refused', () => {
  const b = fixture('image.jpg');
  const sof = b.findIndex((v, i) => v === 0xff && b[i + 1] === 0xc0);
  const broken = b.slice();
  broken[sof + 1] = 0xda; // SOF0 -> SOS
  refuses(() => mediaFacts(broken), /no frame header before its first scan/);
});

test('a JPEG with a height defined later by DNL (height 0) is refused', () => {
  const b = fixture('image.jpg').slice();
  const sof = b.findIndex((v, i) => v === 0xff && b[i + 1] === 0xc0);
  b[sof + 5] = 0;
  b[sof + 6] = 0;
  refuses(() => mediaFacts(b), /DNL/);
});

test('a truncated file is refused as truncated', () => {
  refuses(() => mediaFacts(fixture('image.png').subarray(0, 20)), /truncated/);
  refuses(() => mediaFacts(fixture('audio-vorbis.ogg').subarray(0, 4000)), /truncated/);
  refuses(() => mediaFacts(fixture('audio.wav').subarray(0, 30)), /truncated/);
});

test('a WAV whose data claims more bytes than it holds counts the bytes present', () => {
  const b = fixture('audio.wav').slice();
  const data = Buffer.from(b).indexOf('data');
  new DataView(b.buffer).setUint32(data + 4, 0xffffffff, true);
  assert.deepEqual(mediaFacts(b), { format: 'audio:wav', sampleRate: 8000, durationMs: 750 });
  assert.deepEqual(mediaFacts(b.subarray(0, b.length - 4000)), { format: 'audio:wav', sampleRate: 8000, durationMs: 500 });
});

test('a VBRI header (Fraunhofer) states the frame count, and its own frame is not audio', () => {
  // No encoder here writes VBRI: write one into the first frame of a tag-less MPEG-2.5 file
  // (16 frames of 144 bytes): version 1, delay, quality, bytes, frames = 15.
  const b = fixture('audio-noxing.mp3').slice();
  const v = new DataView(b.buffer);
  b.set(new TextEncoder().encode('VBRI'), 36);
  v.setUint16(40, 1);
  v.setUint16(42, 0);
  v.setUint16(44, 75);
  v.setUint32(46, b.length);
  v.setUint32(50, 15);
  assert.deepEqual(mediaFacts(b), { format: 'audio:mpeg', sampleRate: 8000, durationMs: 1080 });
});

test('a Xing header states the frame count even when the file holds fewer frames', () => {
  const b = fixture('audio-vbr.mp3').slice();
  new DataView(b.buffer).setUint32(13 + 8, 100); // frames field of the Xing tag at 4 + 9
  // 100 frames x 576 samples, less the LAME tag's delay 576 and padding 832.
  assert.deepEqual(mediaFacts(b), { format: 'audio:mpeg', sampleRate: 16000, durationMs: 3512 });
});

test('the LAME tag trims the encoder delay and padding; a tag that trims more than the frames hold is refused', () => {
  const b = fixture('audio-vbr.mp3').slice();
  // The LAME tag follows the Xing fields (flags 15: frames, bytes, TOC, quality) at 13 + 120.
  assert.equal(Buffer.from(b.subarray(133, 142)).toString(), 'LAME3.100');
  b.set([0, 0, 0], 133 + 21);
  assert.deepEqual(mediaFacts(b), { format: 'audio:mpeg', sampleRate: 16000, durationMs: 2088 }, 'no gap: every frame plays');
  b.set([0xff, 0xff, 0xff], 133 + 21);
  new DataView(b.buffer).setUint32(13 + 8, 1); // one frame of 576 samples, 8190 trimmed
  assert.throws(() => mediaFacts(b), /trims more samples than the frames hold/);
});

test('an Ogg stream that is neither Vorbis nor Opus is refused', () => {
  const b = fixture('audio-opus.ogg').slice();
  const head = Buffer.from(b).indexOf('OpusHead');
  b.set(new TextEncoder().encode('OpusHeaX'), head);
  refuses(() => mediaFacts(b), /neither Vorbis nor Opus/);
});

test('junk after the last Ogg page is refused', () => {
  const b = fixture('audio-vorbis.ogg');
  const junk = new Uint8Array(b.length + 3);
  junk.set(b);
  refuses(() => mediaFacts(junk), /no page at offset/);
});
