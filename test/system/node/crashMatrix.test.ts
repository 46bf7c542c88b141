/**
 * The crash matrix: a real node process under transfer load is killed with SIGKILL at 30 points
 * (spread over appends, projection batches and mempool writes by varying the moment). After every
 * restart it serves every block and transaction it acknowledged before the kill, and at the end
 * every read model it served equals what a replay from genesis rebuilds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { join } from 'node:path';
import { OmbraNode } from '../../../node/node.ts';
import { assertReadModelsEqualReplay } from '../../helpers/crashCheck.ts';
import { startNodeProcess } from '../../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';

const KILLS = 30;

async function json(url: string, init?: RequestInit): Promise<any> {
  return (await fetch(url, init)).json();
}

/** The hash of every block the node serves up to `to`, by height, read with `blocks?from=&to=` (100 a request). */
async function servedHashes(url: string, to: number): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let from = 0; from <= to; ) {
    const r = await json(`${url}/api/chain/blocks?from=${from}&to=${Math.min(to, from + 99)}`);
    for (const b of r.blocks as { index: number; hash: string }[]) out.set(b.index, b.hash);
    from = r.next ?? Math.min(to, from + 99) + 1;
  }
  return out;
}

test(`kill -9 at ${KILLS} points under load: every acknowledged block and transaction survives, and replay equals what was served`, async () => {
  const tmp = tempDir();
  const args = ['--dev', '--data-dir', tmp.dir, '--block-time-ms', '100'];
  const blocks = new Map<number, string>();
  const acked = new Set<string>();
  const senders = DEV_KEYS.slice(1, 5);
  // A fixed sequence of kill moments (ms after the node serves): deterministic, and spread.
  let seed = 7;
  const nextDelay = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 60 + (seed % 500);
  };
  try {
    for (let round = 0; round < KILLS; round++) {
      const p = await startNodeProcess(args);
      // Everything acknowledged before this kill is still there: the blocks read in ranges of 100,
      // the transactions looked up by hash, 16 at a time.
      const served = await servedHashes(p.url, Math.max(0, ...blocks.keys()));
      for (const [h, hash] of blocks) assert.equal(served.get(h), hash, `block ${h} after kill ${round}`);
      const hashes = [...acked];
      for (let i = 0; i < hashes.length; i += 16) {
        const statuses = await Promise.all(
          hashes.slice(i, i + 16).map(async (hash) => (await json(`${p.url}/api/chain/tx/${hash}`)).status),
        );
        statuses.forEach((s, j) => assert.ok(s === 'confirmed' || s === 'pending', `tx ${hashes[i + j]} lost after kill ${round} (${s})`));
      }
      const deadline = Date.now() + nextDelay();
      let i = 0;
      try {
        while (Date.now() < deadline) {
          const k = senders[i++ % senders.length];
          const acct = await json(`${p.url}/api/chain/account/${k.address}`);
          const tx = signTx(
            {
              type: 'TRANSFER',
              from: k.address,
              to: DEV_KEYS[6].address,
              amount: '1',
              fee: '1000',
              nonce: acct.nextNonce,
              timestamp: Date.now(),
            },
            k,
          );
          const r = await json(`${p.url}/api/chain/tx`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(tx),
          });
          if (r.ok) acked.add(tx.hash as string);
          const height = (await json(`${p.url}/api/chain/height`)).height as number;
          const b = await json(`${p.url}/api/chain/block/${height}`);
          if (b.hash) blocks.set(height, b.hash);
        }
      } catch {
        // The node may already be going down; what it acknowledged is recorded.
      }
      p.child.kill('SIGKILL');
      await p.exited;
    }
    // Quiesce: let pending transactions land, then compare every read model with a replay.
    const p = await startNodeProcess(args);
    const pending = async () => (await json(`${p.url}/api/mempool/`)).total as number;
    for (let tries = 0; tries < 100 && (await pending()) > 0; tries++) await new Promise((r) => setTimeout(r, 50));
    p.child.kill('SIGTERM');
    await p.exited;
    const node = await OmbraNode.open({ dbDir: join(tmp.dir, 'db') });
    try {
      await assertReadModelsEqualReplay(node);
    } finally {
      await node.stop();
    }
    assert.ok(acked.size > KILLS, `only ${acked.size} transactions were acknowledged`);
  } finally {
    tmp.cleanup();
  }
});
