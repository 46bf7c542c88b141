/**
 * Builds a chain of signed transfers for benchmarks, fast: signatures by node:crypto (the
 * wallet's @noble signer is ~30x slower) and blocks appended straight through the node.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { canonicalPayload } from '../../core/txCodec.ts';
import { sha256Hex } from '../../core/hash.ts';
import type { KeyPair } from '../../core/keys.ts';
import { OmbraNode } from '../../node/node.ts';
import { DEV_KEYS, fixtureGenesis } from '../helpers/testChain.ts';

const pkcs8 = (priv: string) => Buffer.from(`302e020100300506032b657004220420${priv}`, 'hex');

/** A node:crypto signer for a dev key. */
export function fastSigner(k: KeyPair): KeyObject {
  return createPrivateKey({ key: pkcs8(k.privateKey), format: 'der', type: 'pkcs8' });
}

/** Signs a transfer with node:crypto. */
export function fastTransfer(k: KeyPair, signer: KeyObject, to: string, amount: string, fee: string, nonce: number, timestamp: number) {
  const payload = canonicalPayload({ type: 'TRANSFER', from: k.address, to, amount, fee, nonce, timestamp, publicKey: k.publicKey });
  const hash = sha256Hex(JSON.stringify(payload));
  return { ...payload, hash, signature: sign(null, Buffer.from(hash), signer).toString('hex') };
}

/** Writes `blocks` blocks of `perBlock` transfers into `dir` and returns the node, closed. */
export async function buildTransferChain(dir: string, blocks: number, perBlock: number): Promise<{ txs: number }> {
  const genesis = { ...fixtureGenesis(), timestamp: 1_700_000_000_000 };
  let clock = genesis.timestamp;
  const node = await OmbraNode.open({
    dbDir: join(dir, 'db'),
    genesis,
    clock: () => clock,
    mempool: { maxSize: perBlock * 2, maxPerSender: perBlock },
  });
  const signers = DEV_KEYS.map(fastSigner);
  const nonces = DEV_KEYS.map(() => 0);
  let txs = 0;
  for (let b = 0; b < blocks; b++) {
    clock += genesis.blockTimeMs;
    for (let i = 0; i < perBlock; i++) {
      const from = 1 + ((b * perBlock + i) % 9);
      const to = DEV_KEYS[(from + 1 + (i % 8)) % 10].address;
      await node.submitTx(fastTransfer(DEV_KEYS[from], signers[from], to, String(1 + i), '1', nonces[from]++, clock));
    }
    await node.produce(DEV_KEYS[0], clock);
    txs += node.head().transactions.length;
  }
  await node.close();
  return { txs };
}
