/** The verification baselines: raw node:crypto Ed25519 verifies per second on one core, keys imported once. */
import { createPublicKey, verify } from 'node:crypto';
import { DEV_KEYS } from '../helpers/testChain.ts';
import { fastSigner, fastTransfer } from './fixtureChain.ts';

/** Verifies `n` transfer signatures on this thread and returns the rate per second of wall time. */
export function verifyRate(n = 20_000): number {
  return verifyRates(n).wall;
}

/** The same, per second of wall time and per second of this process's CPU time (steady under load). */
export function verifyRates(n = 20_000): { wall: number; cpu: number } {
  const k = DEV_KEYS[1];
  const signer = fastSigner(k);
  const txs = Array.from({ length: 2000 }, (_, i) => fastTransfer(k, signer, DEV_KEYS[2].address, '1', '1', i, 1));
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(k.publicKey, 'hex').toString('base64url') },
    format: 'jwk',
  });
  const data = txs.map((t) => Buffer.from(t.hash));
  const sigs = txs.map((t) => Buffer.from(t.signature, 'hex'));
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    if (!verify(null, data[i % txs.length], key, sigs[i % txs.length])) throw new Error('verify failed');
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall: n / ((performance.now() - start) / 1000), cpu: n / ((cpu.user + cpu.system) / 1e6) };
}
