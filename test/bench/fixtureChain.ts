/**
 * Builds chains of signed transfers for benchmarks, fast: signatures by node:crypto (the
 * wallet's @noble signer is ~30x slower) and blocks built by core's `buildBlock` and imported
 * straight into the node (no mempool round trip).
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { buildBlock } from '../../core/buildBlock.ts';
import type { Genesis } from '../../core/genesis.ts';
import { canonicalPayload } from '../../core/txCodec.ts';
import { sha256Hex } from '../../core/hash.ts';
import type { KeyPair } from '../../core/keys.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { OmbraNode, refOf } from '../../node/node.ts';
import { DEV_KEYS, fixtureGenesis } from '../helpers/testChain.ts';
import { freshAddress } from './signWorker.ts';

const pkcs8 = (priv: string) => Buffer.from(`302e020100300506032b657004220420${priv}`, 'hex');

/** A node:crypto signer for a dev key. */
export function fastSigner(k: KeyPair): KeyObject {
  return createPrivateKey({ key: pkcs8(k.privateKey), format: 'der', type: 'pkcs8' });
}

/** Signs a transaction of any type with node:crypto. */
export function fastTx(k: KeyPair, signer: KeyObject, fields: Record<string, unknown>, nonce: number, timestamp: number): SignedTx {
  const payload = canonicalPayload({ ...fields, from: k.address, nonce, timestamp, publicKey: k.publicKey });
  const hash = sha256Hex(JSON.stringify(payload));
  return { ...payload, hash, signature: sign(null, Buffer.from(hash), signer).toString('hex') } as SignedTx;
}

/** Signs a transfer with node:crypto. */
export function fastTransfer(k: KeyPair, signer: KeyObject, to: string, amount: string, fee: string, nonce: number, timestamp: number) {
  return fastTx(k, signer, { type: 'TRANSFER', to, amount, fee }, nonce, timestamp);
}

/** What to build. */
export interface ChainShape {
  blocks: number;
  perBlock: number;
  /** Every transfer pays a new account (otherwise the dev accounts pay each other). */
  freshAccounts?: boolean;
  /** Called after each block (progress). */
  onBlock?: (index: number) => void;
}

/**
 * Writes `blocks` blocks of `perBlock` transfers from dev keys 1-9 into `dir/db` (the dev
 * genesis, one authority) and returns the transaction count and the genesis; the node is closed.
 */
export function buildTransferChain(dir: string, shape: ChainShape): Promise<{ txs: number; genesis: Genesis }> {
  return buildChain(dir, shape, (n, i) => {
    const from = 1 + (n % 9);
    const to = shape.freshAccounts ? freshAddress(n) : DEV_KEYS[(from + 1 + (i % 8)) % 10].address;
    return { from, fields: { type: 'TRANSFER', to, amount: String(1 + i), fee: '1' } };
  });
}

/**
 * Writes `blocks` blocks of `perBlock` TASK_SUBMITs from dev keys 1-9 that time out one second
 * later, so each block finishes the tasks of the one before: a history of finished tasks.
 */
export function buildTaskChain(dir: string, shape: ChainShape): Promise<{ txs: number; genesis: Genesis }> {
  return buildChain(dir, shape, (n) => ({
    from: 1 + (n % 9),
    fields: { type: 'TASK_SUBMIT', taskType: 'chat', prompt: `bench task ${n}: ${'x'.repeat(64)}`, fee: '10000', timeoutMs: 1000 },
  }));
}

/**
 * Writes `blocks` blocks of `perBlock` CHAT_TURNs from dev keys 1-9, two turns a conversation (a
 * turn and its answer, in the same block or the next): a history of finished conversations.
 */
export function buildChatChain(dir: string, shape: ChainShape): Promise<{ txs: number; genesis: Genesis }> {
  return buildChain(dir, shape, (n) => ({
    from: 1 + (n % 9),
    fields: {
      type: 'CHAT_TURN',
      conversationId: sha256Hex(`bench-conversation-${Math.floor(n / 2)}`),
      role: n % 2 ? 'assistant' : 'user',
      content: `bench turn ${n}: ${'x'.repeat(64)}`,
      fee: '1',
    },
  }));
}

/** Writes a chain whose n-th transaction (the i-th of its block) `txOf` describes. */
async function buildChain(
  dir: string,
  shape: ChainShape,
  txOf: (n: number, i: number) => { from: number; fields: Record<string, unknown> },
): Promise<{ txs: number; genesis: Genesis }> {
  const genesis = { ...fixtureGenesis(), timestamp: 1_700_000_000_000 };
  let clock = genesis.timestamp;
  // Blocks are built on the node's state directly: it keeps every record (no load step here).
  const node = await OmbraNode.open({ dbDir: join(dir, 'db'), genesis, clock: () => clock, recordCache: Number.POSITIVE_INFINITY });
  const signers = DEV_KEYS.map(fastSigner);
  const nonces = DEV_KEYS.map(() => 0);
  let txs = 0;
  try {
    for (let b = 0; b < shape.blocks; b++) {
      clock += genesis.blockTimeMs;
      const candidates: SignedTx[] = [];
      for (let i = 0; i < shape.perBlock; i++) {
        const { from, fields } = txOf(b * shape.perBlock + i, i);
        candidates.push(fastTx(DEV_KEYS[from], signers[from], fields, nonces[from]++, clock));
      }
      const { block, dropped } = buildBlock(node.state(), refOf(node.head()), candidates, DEV_KEYS[0], clock, genesis);
      if (dropped.length) throw new Error(`bench chain: ${dropped[0].error.message}`);
      await node.importBlock(block, 'local', { signaturesVerified: true });
      txs += block.transactions.length;
      shape.onBlock?.(block.index);
    }
  } finally {
    await node.stop();
  }
  return { txs, genesis };
}
