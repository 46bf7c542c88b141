/**
 * Worker side of the scale chain's builder (test/bench/scaleChain.ts): signs the transfers
 * `start..start+count-1` of a chain of transfers to new accounts, each by node:crypto, and posts
 * them back in order. Transfer n: from dev key 1 + n % 9 (nonce n / 9), to the n-th fresh
 * address, stamped with its block's time.
 */
import { createPrivateKey, sign } from 'node:crypto';
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

/** The n-th fresh address (never a dev key's): `ox` + 40 hex digits. */
export function freshAddress(n: number): string {
  return `ox${sha256Hex(`bench-account-${n}`).slice(0, 40)}`;
}

const pkcs8 = (priv: string) => Buffer.from(`302e020100300506032b657004220420${priv}`, 'hex');

// Imported on the main thread too (for `freshAddress`): it signs only as the builder's worker.
const port = parentPort;
const setup = workerData as SignSetup | undefined;
if (port && setup?.keys) serve(port, setup);

function serve(port: NonNullable<typeof parentPort>, setup: SignSetup): void {
  const signers = setup.keys.map((k) => createPrivateKey({ key: pkcs8(k.privateKey), format: 'der', type: 'pkcs8' }));
  port.on('message', (job: SignJob) => {
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
      txs[i] = { ...payload, hash, signature: sign(null, Buffer.from(hash), signers[from]).toString('hex') } as SignedTx;
    }
    port.postMessage({ start: job.start, txs });
  });
}
