/**
 * `npm run bench`: each figure beside a baseline measured in the same run on the same machine.
 *   replay: transfers replayed per second (full verification) vs raw Ed25519 verifies per second.
 * Usage: npm run bench [-- --blocks 100 --per-block 100]
 */
import { createPublicKey, verify } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';
import { OmbraNode } from '../../node/node.ts';
import { buildTransferChain, fastSigner, fastTransfer } from './fixtureChain.ts';
import { bareFanout, nodeFanout } from './fanout.ts';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const BLOCKS = arg('blocks', 100);
const PER_BLOCK = arg('per-block', 100);
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const SUBSCRIBERS = arg('subscribers', 5000);

function machine(): string {
  const c = cpus();
  return `${c.length} x ${c[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`;
}

/** Raw node:crypto Ed25519 verifications per second, one core, keys imported once. */
function verifyBaseline(n = 20_000): number {
  const k = DEV_KEYS[1];
  const signer = fastSigner(k);
  const txs = Array.from({ length: 2000 }, (_, i) => fastTransfer(k, signer, DEV_KEYS[2].address, '1', '1', i, 1));
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(k.publicKey, 'hex').toString('base64url') },
    format: 'jwk',
  });
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const t = txs[i % txs.length];
    if (!verify(null, Buffer.from(t.hash), key, Buffer.from(t.signature, 'hex'))) throw new Error('verify failed');
  }
  return n / ((performance.now() - start) / 1000);
}

async function replayBench(): Promise<{ txs: number; blocks: number; seconds: number }> {
  const tmp = tempDir('ombra-bench-');
  try {
    const built = await buildTransferChain(tmp.dir, BLOCKS, PER_BLOCK);
    const node = await OmbraNode.open({ dbDir: join(tmp.dir, 'db') });
    await node.runner.resetAll();
    const start = performance.now();
    await node.catchUp(undefined, { verifySignatures: true });
    const seconds = (performance.now() - start) / 1000;
    await node.close();
    return { txs: built.txs, blocks: BLOCKS, seconds };
  } finally {
    tmp.cleanup();
  }
}

/**
 * fanout: SUBSCRIBERS SSE subscribers on one node vs a bare node:http server writing the same
 * bytes to as many clients; time from append to the last subscriber, and memory per side.
 */
async function fanoutSection(): Promise<void> {
  console.log(`fanout: ${SUBSCRIBERS} SSE subscribers (raw sockets in a child process), ${cpus().length} cores`);
  const node = await nodeFanout(SUBSCRIBERS, 7);
  const bare = await bareFanout(SUBSCRIBERS, 7, node.sample!);
  const show = (name: string, r: typeof node) =>
    console.log(
      `  ${name.padEnd(34)} last ${r.lastMs.toFixed(1)} ms (first ${r.firstMs.toFixed(1)} ms; rounds ${r.rounds.map((x) => x.toFixed(0)).join(' ')}), frame ${r.frameBytes} B, memory +${r.rssMiB.toFixed(1)} MiB RSS / +${r.heapMiB.toFixed(1)} MiB heap`,
    );
  show('baseline: bare node:http broadcast', bare);
  show('node: GET /api/chain/events', node);
  console.log(`ratio: node / bare delivery to the last subscriber = ${(node.lastMs / bare.lastMs).toFixed(2)} (goal <= 1.5)`);
}

if (ONLY === 'fanout') {
  console.log(`machine: ${machine()}`);
  await fanoutSection();
  process.exit(0);
}

console.log(`machine: ${machine()}`);
// `npm run bench -- --only ratelimit` runs the rate-limiter and alert-delivery section alone.
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
if (only === 'sync') {
  const { syncBench } = await import('./sync.ts');
  await syncBench();
  process.exit(0);
}
if (only === 'reads') {
  const { readsBench } = await import('./reads.ts');
  await readsBench();
  process.exit(0);
}
if (only === 'ratelimit' || only === 'alerts') {
  const { rateLimitBench, deliveryBench } = await import('./rateLimit.ts');
  await rateLimitBench();
  await deliveryBench();
  process.exit(0);
}
const v1 = verifyBaseline();
const r = await replayBench();
const v2 = verifyBaseline();
const baseline = (v1 + v2) / 2;
const tps = r.txs / r.seconds;
console.log(`baseline: raw Ed25519 verify (node:crypto, 1 core): ${baseline.toFixed(0)} /s (runs: ${v1.toFixed(0)}, ${v2.toFixed(0)})`);
console.log(`replay: ${r.txs} transfers in ${r.blocks} blocks, full verification: ${r.seconds.toFixed(2)} s = ${tps.toFixed(0)} tx/s`);
console.log(`ratio: replay tx/s / raw verify/s = ${(tps / baseline).toFixed(2)}`);
if (ONLY === undefined) await fanoutSection();
if (!only) {
  const { readsBench } = await import('./reads.ts');
  await readsBench();
  const { rateLimitBench, deliveryBench } = await import('./rateLimit.ts');
  await rateLimitBench();
  await deliveryBench();
  const { syncBench } = await import('./sync.ts');
  await syncBench();
}
