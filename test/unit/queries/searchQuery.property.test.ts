/**
 * The search query parser: any string is either refused with INVALID_PARAMS (empty or too long
 * once trimmed) or read into forms each of which is exactly what its id kind accepts; every id
 * the chain mints is read back into its own form, whatever case and whitespace surround it.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainError } from '../../../core/errors.ts';
import { MAX_SEARCH_QUERY, parseSearchQuery } from '../../../queries/searchQuery.ts';

const hex = (min: number, max: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${min},${max}}$`));
const space = fc.stringMatching(/^[ \t\n]{0,3}$/);
const mixedCase = (s: string, flips: boolean[]) => [...s].map((ch, i) => (flips[i % flips.length] ? ch.toUpperCase() : ch)).join('');

test('any string: refused with INVALID_PARAMS exactly when empty or too long once trimmed; else every form holds what it claims', () => {
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.stringMatching(/^[ -~]{0,140}$/)), (raw) => {
      const text = raw.trim();
      let q: ReturnType<typeof parseSearchQuery>;
      try {
        q = parseSearchQuery(raw);
      } catch (e) {
        assert.ok(e instanceof ChainError && e.code === 'INVALID_PARAMS');
        assert.ok(text.length === 0 || text.length > MAX_SEARCH_QUERY);
        return;
      }
      assert.ok(text.length >= 1 && text.length <= MAX_SEARCH_QUERY);
      assert.equal(q.text, text);
      assert.equal(q.lower, text.toLowerCase());
      if (q.height !== undefined)
        assert.ok(Number.isSafeInteger(q.height) && q.height >= 0 && String(q.height) === text.replace(/^0+(?=.)/, ''));
      if (q.hash !== undefined) assert.match(q.hash, /^[0-9a-f]{64}$/);
      if (q.address !== undefined) assert.match(q.address, /^ox[0-9a-f]{40}$/);
      if (q.addressPrefix !== undefined) assert.match(q.addressPrefix, /^ox[0-9a-f]{2,39}$/);
      if (q.txPrefix !== undefined) assert.match(q.txPrefix, /^[0-9a-f]{2,63}$/);
      assert.ok(q.address === undefined || q.addressPrefix === undefined, 'a full address is not also a prefix');
      if (q.recordId !== undefined) assert.match(q.recordId, /^[A-Za-z0-9_-]{1,64}$/);
      if (q.taskId !== undefined) assert.match(q.taskId, /^[A-Za-z0-9_-]{8,64}$/);
      if (q.alias !== undefined) assert.match(q.alias, /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/);
      if (q.namePrefix !== undefined) assert.ok(q.namePrefix === q.lower && q.lower.length >= 2);
    }),
    { numRuns: 2000 },
  );
});

test('a hash or address in any case, padded with whitespace, is read as itself lowercased', () => {
  fc.assert(
    fc.property(hex(64, 64), hex(40, 40), fc.array(fc.boolean(), { minLength: 1 }), space, space, (h, a, flips, before, after) => {
      assert.equal(parseSearchQuery(`${before}${mixedCase(h, flips)}${after}`).hash, h);
      const address = `ox${a}`;
      const q = parseSearchQuery(`${before}${mixedCase(address, flips)}${after}`);
      assert.equal(q.address, address);
      assert.equal(q.addressPrefix, undefined);
    }),
  );
});

test('2..39 hex digits, with ox, 0x or neither, are an address prefix that starts with ox; without ox, a hash prefix too', () => {
  fc.assert(
    fc.property(hex(2, 39), fc.constantFrom('', 'ox', '0x', '0X'), (p, lead) => {
      const q = parseSearchQuery(`${lead}${p}`);
      assert.equal(q.addressPrefix, `ox${p}`);
      assert.equal(q.txPrefix, lead === 'ox' ? undefined : p);
    }),
  );
});

test('0x and bare hex: 40 digits are an address, 64 a hash', () => {
  fc.assert(
    fc.property(hex(40, 40), hex(64, 64), fc.constantFrom('', '0x'), (a, h, lead) => {
      assert.equal(parseSearchQuery(`${lead}${a}`).address, `ox${a}`);
      assert.equal(parseSearchQuery(`${lead}${h}`).hash, h);
    }),
  );
});

test('a record id keeps its case; a height is a number; a DNS label is an alias', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), (id) => {
      assert.equal(parseSearchQuery(id).recordId, id);
    }),
  );
  fc.assert(
    fc.property(fc.nat(), (n) => {
      assert.equal(parseSearchQuery(String(n)).height, n);
    }),
  );
  fc.assert(
    fc.property(fc.stringMatching(/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/), (label) => {
      assert.equal(parseSearchQuery(label.toUpperCase()).alias, label);
    }),
  );
});
