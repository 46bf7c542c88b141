/**
 * Worker side of the scale chains' builders: signs the transfers `start..start+count-1` of a
 * chain of transfers to new accounts and posts them back in order (test/bench/scaleChain.ts), or
 * a list of block hashes, the blocks' attestations (test/bench/scaleBlocks.ts).
 * Signed by libsodium (~16 us a signature here, node:crypto ~36; Ed25519 signatures are
 * deterministic, so both give the same bytes), node:crypto where its addon does not load. Transfer n: from dev key 1 + n % 9 (nonce n / 9), to the n-th fresh
 * address, stamped with its block's time.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { sha256Hex } from '../../core/hash.ts';
import type { KeyPair } from '../../core/keys.ts';
import { canonicalPayload } from '../../core/txCodec.ts';
import type { SignedTx } from '../../core/tx/handler.ts';

/** What the builder hands each worker once. */
export interface SignSetup {
  keys: KeyPair[];
  perBlock: number;
  genesisTimestamp: number;
  blockTimeMs: number;
}

/** One job: transfers start..start+count-1. */
export interface SignJob {
  start: number;
  count: number;
}

/** One job of block attestations: each block hash signed by `setup.keys[key]` (test/bench/scaleBlocks.ts). */
export interface AttestJob {
  id: number;
  key: number;
  hashes: string[];
}

/** The n-th fresh address (never a dev key's): `ox` + 40 hex digits. */
export function freshAddress(n: number): string {
  return `ox${sha256Hex(`bench-account-${n}`).slice(0, 40)}`;
}

const pkcs8 = (priv: string) => Buffer.from(`302e020100300506032b657004220420${priv}`, 'hex');

// Imported on the main thread too (for `freshAddress`): it signs only as the builder's worker.
const port = parentPort;
const setup = workerData as SignSetup | undefined;
if (port && setup?.keys) serve(port, setup);

/** libsodium's detached signing, when its addon loads. */
interface Sodium {
  crypto_sign_seed_keypair(pk: Buffer, sk: Buffer, seed: Buffer): void;
  crypto_sign_detached(sig: Buffer, message: Buffer, sk: Buffer): void;
}

function sodium(): Sodium | null {
  try {
    return createRequire(import.meta.url)('sodium-native') as Sodium;
  } catch {
    return null;
  }
}

/** A signer of UTF-8 messages for each key. */
function signersOf(keys: KeyPair[]): ((message: string) => string)[] {
  const na = sodium();
  return keys.map((k) => {
    if (na) {
      const sk = Buffer.alloc(64);
      na.crypto_sign_seed_keypair(Buffer.alloc(32), sk, Buffer.from(k.privateKey, 'hex'));
      const sig = Buffer.alloc(64);
      return (message) => {
        na.crypto_sign_detached(sig, Buffer.from(message), sk);
        return sig.toString('hex');
      };
    }
    const key = createPrivateKey({ key: pkcs8(k.privateKey), format: 'der', type: 'pkcs8' });
    return (message) => sign(null, Buffer.from(message), key).toString('hex');
  });
}

function serve(port: NonNullable<typeof parentPort>, setup: SignSetup): void {
  const signers = signersOf(setup.keys);
  port.on('message', (job: SignJob | AttestJob) => {
    if ('hashes' in job) {
      port.postMessage({ id: job.id, signatures: job.hashes.map((h) => signers[job.key](h)) });
      return;
    }
    const txs: SignedTx[] = new Array(job.count);
    for (let i = 0; i < job.count; i++) {
      const n = job.start + i;
      const from = 1 + (n % 9);
      const k = setup.keys[from];
      const block = Math.floor(n / setup.perBlock);
      const payload = canonicalPayload({
        type: 'TRANSFER',
        to: freshAddress(n),
        amount: String(1 + (n % setup.perBlock)),
        fee: '1',
        from: k.address,
        nonce: Math.floor(n / 9),
        timestamp: setup.genesisTimestamp + (block + 1) * setup.blockTimeMs,
        publicKey: k.publicKey,
      });
      const hash = sha256Hex(JSON.stringify(payload));
      txs[i] = { ...payload, hash, signature: signers[from](hash) } as SignedTx;
    }
    port.postMessage({ start: job.start, txs });
  });
}
