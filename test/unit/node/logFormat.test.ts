import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../../../node/log.ts';
import { defaultLogFormat, escapeControl, jsonLine, prettyLine } from '../../../node/logFormat.ts';

const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const when = new Date('2026-01-02T03:04:05.678Z');
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const fieldsArb = fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), fc.oneof(anyText, fc.integer(), fc.boolean(), fc.bigInt()), {
  maxKeys: 5,
});

test('a JSON line is one object with time, level, msg and the fields, and no raw control character', () => {
  fc.assert(
    fc.property(anyText, fieldsArb, (msg, fields) => {
      const line = jsonLine(when, 'info', msg, fields);
      assert.ok(line.endsWith('\n'));
      assert.ok(!RAW_CONTROL.test(line.slice(0, -1)), JSON.stringify(line));
      const obj = JSON.parse(line);
      assert.equal(obj.time, when.toISOString());
      assert.equal(obj.level, 'info');
      assert.equal(obj.msg, msg);
      for (const [k, v] of Object.entries(fields)) {
        const key = ['time', 'level', 'msg'].includes(k) ? `field.${k}` : k;
        assert.deepEqual(obj[key], typeof v === 'bigint' ? v.toString() : v);
      }
    }),
  );
});

test('a pretty line is one line with no raw control character, whatever the message and fields hold', () => {
  fc.assert(
    fc.property(anyText, fieldsArb, (msg, fields) => {
      const line = prettyLine(when, 'warn', msg, fields);
      assert.ok(line.startsWith(`${when.toISOString()} WARN  `));
      assert.ok(line.endsWith('\n'));
      assert.ok(!RAW_CONTROL.test(line.slice(0, -1)), JSON.stringify(line));
    }),
  );
});

// Text made of what breaks log lines: separators, quotes, escapes, line breaks, C1, DEL, U+2028/9.
const hostile = fc
  .array(
    fc.constantFrom(' ', '=', '"', '\\', '\n', '\r', '\t', '\u2028', '\u2029', '\u009b', '\u0085', '\u007f', '\u001b', 'a', 'é', '😀'),
    {
      maxLength: 12,
    },
  )
  .map((a) => a.join(''));

test('hostile text in the message, a field name or a value never yields a raw control character, in either format', () => {
  fc.assert(
    fc.property(hostile, hostile, hostile, (msg, key, value) => {
      for (const line of [prettyLine(when, 'info', msg, { [key]: value, v: value }), jsonLine(when, 'info', msg, { [key]: value })]) {
        assert.ok(line.endsWith('\n'));
        assert.ok(!RAW_CONTROL.test(line.slice(0, -1)), JSON.stringify(line));
      }
    }),
    { numRuns: 2000 },
  );
});

test('a pretty value reads back as the text it was: quoted values are JSON strings, bare ones escaped words', () => {
  fc.assert(
    fc.property(hostile, (value) => {
      const line = prettyLine(when, 'info', 'm', { f: value });
      const written = line.slice(line.indexOf(' f=') + 3, -1);
      if (written.startsWith('"')) assert.equal(JSON.parse(written), value);
      else {
        assert.doesNotMatch(written, /[\s"=]/);
        assert.equal(JSON.parse(`"${written}"`), value);
      }
    }),
    { numRuns: 2000 },
  );
});

test('pretty values: plain words bare, text with spaces or quotes quoted, objects as JSON', () => {
  const line = prettyLine(when, 'info', 'node serving', { url: 'http://127.0.0.1:7777', why: 'a b', n: 3n, o: { a: 1 } });
  assert.equal(line, `${when.toISOString()} INFO  node serving url=http://127.0.0.1:7777 why="a b" n="3" o={"a":1}\n`);
  assert.equal(escapeControl('a\nb\u001b[2J\u009b'), 'a\\nb\\u001b[2J\\u009b');
});

test('the logger writes the chosen format and drops levels below its own', () => {
  const lines: string[] = [];
  const log = createLogger('info', (l) => lines.push(l), 'json');
  log.debug('hidden');
  log.error('boom', { error: new Error('bad\nthing') });
  assert.equal(lines.length, 1);
  assert.deepEqual(JSON.parse(lines[0]).error, { name: 'Error', message: 'bad\nthing' });
  assert.equal(defaultLogFormat({ isTTY: true }), 'pretty');
  assert.equal(defaultLogFormat({ isTTY: false }), 'json');
});
