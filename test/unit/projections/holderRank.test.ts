/**
 * The holder rank key (projections/holders.ts): a balance's digit count complemented, then each
 * digit complemented, so keys sort largest balance first. Checked against that definition digit
 * by digit, and for order, over edge and random balances.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rankRow } from '../../../projections/holders.ts';

const ADDRESS = `ox${'ab'.repeat(20)}`;

/** The rank as the format defines it, one digit at a time. */
function reference(balance: bigint): string {
  const digits = balance.toString();
  let out = String(99 - digits.length).padStart(2, '0');
  for (const d of digits) out += String(9 - Number(d));
  return `r!${out}!${ADDRESS}`;
}

/** A deterministic spread of balances: powers of ten and their neighbours, nines, and pseudo-random ones up to 40 digits. */
function balances(): bigint[] {
  const out = [0n, 1n, 9n, 10n, 11n, 99n, 100n, 101n, 999n, 1000n];
  for (let n = 1; n <= 40; n++) {
    const p = 10n ** BigInt(n);
    out.push(p - 1n, p, p + 1n, p / 2n, (p * 7n) / 9n);
  }
  let x = 0x2545f4914f6cdd1dn;
  for (let i = 0; i < 2000; i++) {
    x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    out.push(x % 10n ** BigInt(1 + (i % 40)));
  }
  return out;
}

test('every rank key is the balance complemented digit by digit, after its complemented length', () => {
  for (const balance of balances()) assert.equal(rankRow.key({ address: ADDRESS, balance }), reference(balance), `balance ${balance}`);
});

test('rank keys sort larger balances first', () => {
  const sorted = balances().sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const keys = sorted.map((balance) => rankRow.key({ address: ADDRESS, balance }));
  for (let i = 1; i < keys.length; i++)
    if (sorted[i] !== sorted[i - 1]) assert.ok(keys[i - 1] < keys[i], `${sorted[i - 1]} ranks before ${sorted[i]}`);
});
