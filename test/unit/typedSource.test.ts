/**
 * The read side is typed like the write side, checked on the syntax tree of every source file
 * (test/helpers/assertionCount.ts): no transaction or field of one is cast (readers narrow with
 * `isTx`), a projection's rows are read through their row kinds (no cast of a row read), and the
 * few non-null assertions left each carry a `biome-ignore` with its reason.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allSites } from '../helpers/assertionCount.ts';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The most non-null assertions source may keep, each justified where it stands. */
const MAX_NON_NULL = 20;

const source = allSites().filter((s) => !s.file.startsWith('test/'));

/** The expression a cast applies to: `tx`, `tx.fee`, `e.tx.fee`, `signedTx` and the like. */
const TX_OPERAND = /^\(?(?:[\w.]*\.)?(?:tx|\w+Tx)(?:\.\w+)*\)?\s+as\s/;

test('no source file casts a transaction or one of its fields', () => {
  const casts = source.filter((s) => s.kind === 'cast' && TX_OPERAND.test(s.text)).map((s) => `${s.file}:${s.line} ${s.text}`);
  assert.deepEqual(casts, []);
});

test('no source file casts what it read from a projection’s rows', () => {
  // A row read is `await rows.get(...)`, `rows.values(...)`'s value: typed by its row kind instead.
  const reads = source
    .filter((s) => s.kind === 'cast' && /\.(get|getMany)\(/.test(s.text) && /\brows\b|readable\(/.test(s.text))
    .map((s) => `${s.file}:${s.line} ${s.text}`);
  assert.deepEqual(reads, []);
});

test(`at most ${MAX_NON_NULL} non-null assertions in source, each with a biome-ignore and its reason`, () => {
  const nonNull = source.filter((s) => s.kind === 'nonNull');
  assert.ok(
    nonNull.length <= MAX_NON_NULL,
    `${nonNull.length} non-null assertions: ${nonNull.map((s) => `${s.file}:${s.line}`).join(', ')}`,
  );
  const unexplained = nonNull.filter((s) => {
    const lines = readFileSync(join(ROOT, s.file), 'utf8').split('\n');
    const above = lines.slice(Math.max(0, s.line - 3), s.line - 1).join('\n');
    return !/biome-ignore lint\/style\/noNonNullAssertion: \S.{9,}/.test(above);
  });
  assert.deepEqual(
    unexplained.map((s) => `${s.file}:${s.line}`),
    [],
  );
});
