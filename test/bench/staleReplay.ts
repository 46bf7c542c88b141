/**
 * CPU a node process spends on re-gossip of one genuine, already included transaction: 2,000
 * replays of the same bytes, then 2,000 in fresh bytes (leading spaces), from one plain gossipsub
 * peer. Prints the node's CPU (user + system, from /proc) per replay for each, against the CPU it
 * spends idle over the same time. `node test/bench/staleReplay.ts`.
 */
import { readFileSync } from 'node:fs';
import { multiaddr } from '@multiformats/multiaddr';
import { signTx } from '../../core/txCodec.ts';
import { encode } from '../../p2p/wire.ts';
import { getJson, hostileLibp2p } from '../helpers/hostilePeer.ts';
import { startNodeProcess, waitFor } from '../helpers/nodeProcess.ts';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';

/** CPU milliseconds a process has used (utime + stime). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .slice(readFileSync(`/proc/${pid}/stat`, 'utf8').lastIndexOf(')') + 2)
    .split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

const N = 2000;
const tmp = tempDir('ombra-replay-');
const node = await startNodeProcess(['--dev', '--block-time-ms', '500', '--data-dir', tmp.dir]);
const peer = await hostileLibp2p(true);
try {
  const pid = node.child.pid!;
  const id = (await getJson<{ hash: string }>(node.url, '/api/chain/block/0')).hash.slice(0, 16);
  const topic = `/ombra/${id}/tx/1`;
  const tx = signTx(
    { type: 'TRANSFER', from: DEV_KEYS[1].address, to: DEV_KEYS[2].address, amount: '7', fee: '1000', nonce: 0, timestamp: Date.now() },
    DEV_KEYS[1],
  );
  const res = await fetch(`${node.url}/api/chain/tx`, {
    method: 'POST',
    body: JSON.stringify(tx),
    headers: { 'content-type': 'application/json' },
  });
  if (!res.ok) throw new Error(`submit: ${res.status} ${await res.text()}`);
  await waitFor(
    async () => ((await getJson<{ nonce: number }>(node.url, `/api/chain/account/${DEV_KEYS[1].address}`)).nonce === 1 ? true : undefined),
    15_000,
  );
  peer.services.pubsub.subscribe(topic);
  await peer.dial(multiaddr((await getJson<{ addresses: string[] }>(node.url, '/api/chain/network')).addresses[0]));
  await waitFor(async () => (peer.services.pubsub.getSubscribers(topic).length > 0 ? true : undefined));
  await new Promise((r) => setTimeout(r, 1500));
  const json = JSON.stringify(tx);
  const run = async (label: string, bytes: (i: number) => Uint8Array) => {
    const c0 = cpuMs(pid);
    const t0 = Date.now();
    await Promise.all(Array.from({ length: N }, (_, i) => peer.services.pubsub.publish(topic, bytes(i)).catch(() => undefined)));
    // Until the node has read everything sent: its CPU settles.
    for (let c = cpuMs(pid), i = 0; i < 60; i++) {
      await new Promise((r) => setTimeout(r, 500));
      const now = cpuMs(pid);
      if (now - c < 40) break;
      c = now;
    }
    const wall = Date.now() - t0;
    const used = cpuMs(pid) - c0;
    const i0 = cpuMs(pid);
    await new Promise((r) => setTimeout(r, wall));
    const idle = cpuMs(pid) - i0;
    console.log(
      `${label}: ${used} ms CPU over ${wall} ms (idle over the same time: ${idle} ms); ${((used - idle) / N).toFixed(3)} ms per replay`,
    );
  };
  await run(`${N} replays, same bytes`, () => encode(tx));
  await run(`${N} replays, fresh bytes`, (i) => new TextEncoder().encode(' '.repeat(i + 1) + json));
} finally {
  await peer.stop();
  node.child.kill('SIGTERM');
  await node.exited;
  tmp.cleanup();
}
