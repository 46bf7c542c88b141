/**
 * The verification baselines: raw Ed25519 verifies per second on one core, keys imported once.
 * node:crypto (OpenSSL) is the baseline; libsodium is the implementation the node itself
 * uses (core/ed25519Equation.ts), so its rate is the node's own two-core limit.
 */
import { opensslEquation, sodiumEquation, type Ed25519Equation } from '../../core/ed25519Equation.ts';
import { DEV_KEYS } from '../helpers/testChain.ts';
import { fastSigner, fastTransfer } from './fixtureChain.ts';

/** Rates per second of wall time and per second of this process's CPU time (steady under load). */
export interface Rates {
  wall: number;
  cpu: number;
}

/** node:crypto's rates, the baseline. */
export function verifyRates(n = 20_000): Rates {
  return equationRates(opensslEquation as Ed25519Equation, n);
}

/** libsodium's rates (the node's own verifier), or null where its addon does not load. */
export function sodiumRates(n = 20_000): Rates | null {
  return sodiumEquation ? equationRates(sodiumEquation as Ed25519Equation, n) : null;
}

/** Verifies `n` transfer signatures with `eq` alone: no hex decoding, no rule checks. */
function equationRates(eq: Ed25519Equation, n: number): Rates {
  const k = DEV_KEYS[1];
  const signer = fastSigner(k);
  const txs = Array.from({ length: 2000 }, (_, i) => fastTransfer(k, signer, DEV_KEYS[2].address, '1', '1', i, 1));
  const key = eq.prepare(Buffer.from(k.publicKey, 'hex'));
  const data = txs.map((t) => Buffer.from(t.hash));
  const sigs = txs.map((t) => Buffer.from(t.signature, 'hex'));
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    if (!eq.holds(key, data[i % txs.length], sigs[i % txs.length])) throw new Error('verify failed');
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall: n / ((performance.now() - start) / 1000), cpu: n / ((cpu.user + cpu.system) / 1e6) };
}
