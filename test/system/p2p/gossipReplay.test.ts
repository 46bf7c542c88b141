/**
 * Identical bytes replayed over gossip cost the replayer, not the node: a peer that sends one
 * genuine block message (3.5 MiB, a block the node holds, padded with JSON whitespace) and then
 * the very same frame again and again, as fast as the node reads, is banned and hung up on after
 * a few copies. The node runs as a child process, so its CPU is its own (/proc).
 */
import { readFileSync } from 'node:fs';
import type { Libp2p } from '@libp2p/interface';
import { multiaddr } from '@multiformats/multiaddr';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getJson, hostileLibp2p, metricOf } from '../../helpers/hostilePeer.ts';
import { startNodeProcess, waitFor, type NodeProcess } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

/** How long the replayer sends. */
const REPLAY_MS = 10_000;
const MESSAGE_BYTES = 3.5 * 1024 * 1024;

/** CPU milliseconds a process has used (utime + stime). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}

/** `bytes` behind its unsigned varint length, as gossipsub frames an RPC. */
function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  const prefix: number[] = [];
  for (let n = bytes.byteLength; ; n = Math.floor(n / 128)) {
    if (n < 128) {
      prefix.push(n);
      break;
    }
    prefix.push((n % 128) | 128);
  }
  const out = new Uint8Array(prefix.length + bytes.byteLength);
  out.set(prefix);
  out.set(bytes, prefix.length);
  return out;
}

/** The replayer's gossipsub internals it sends raw frames through. */
interface Outbound {
  pushPrefixed(data: Uint8Array): void;
  pushable: { readableLength: number };
}
type Internals = {
  streamsOutbound: Map<string, Outbound>;
  mcache: { msgs: Map<string, { message: unknown }> };
};

test('one genuine block message replayed as identical frames for 10 s: the replayer is banned after a few copies', async () => {
  const tmp = tempDir('ombra-replay-');
  const replayer = await hostileLibp2p(true);
  let node: NodeProcess | null = null;
  try {
    node = await startNodeProcess(['--dev', '--block-time-ms', '500', '--data-dir', tmp.dir]);
    const pid = node.child.pid!;
    const id = (await getJson<{ hash: string }>(node.url, '/api/chain/block/0')).hash.slice(0, 16);
    const topic = `/ombra/${id}/block/1`;
    await waitFor(async () => ((await getJson<{ height: number }>(node!.url, '/api/chain/height')).height >= 2 ? true : undefined));
    const block = await getJson<unknown>(node.url, '/api/chain/block/1');
    const json = JSON.stringify(block);
    const data = new TextEncoder().encode(' '.repeat(MESSAGE_BYTES - json.length) + json);
    const pubsub = replayer.services.pubsub;
    pubsub.subscribe(topic);
    await replayer.dial(multiaddr((await getJson<{ addresses: string[] }>(node.url, '/api/chain/network')).addresses[0]));
    await waitFor(async () => (pubsub.getSubscribers(topic).length > 0 ? true : undefined));
    const nodeId = pubsub.getSubscribers(topic)[0].toString();
    // Sent once the ordinary way (a block the node holds: stale, free within the budget) ...
    await pubsub.publish(topic, data);
    const internals = pubsub as unknown as Internals;
    // Its own message (the cache also holds the blocks the node gossiped to it).
    const entry = [...internals.mcache.msgs.values()].find(
      (m) => (m.message as { data?: Uint8Array }).data?.byteLength === data.byteLength,
    );
    if (!entry) throw new Error('the published message is not in the replayer cache');
    // ... then the very same frame (length prefix, RPC, signed message) again and again.
    const { RPC } = await import('@chainsafe/libp2p-gossipsub/message');
    const rpc = RPC.encode({ subscriptions: [], messages: [entry.message as never] });
    const frame = lengthPrefixed(rpc);
    assert.ok(frame.byteLength > MESSAGE_BYTES, 'the frame carries the whole message');
    const c0 = cpuMs(pid);
    let pushed = 0;
    let left = 0;
    const t0 = Date.now();
    const until = t0 + REPLAY_MS;
    while (Date.now() < until) {
      const out = internals.streamsOutbound.get(nodeId);
      if (!out || (replayer as Libp2p).getConnections().length === 0) break;
      // Keeps 32 MiB queued: the node reads as fast as it can.
      while (out.pushable.readableLength < 32 * 1024 * 1024) {
        out.pushPrefixed(frame);
        pushed++;
      }
      left = out.pushable.readableLength;
      await new Promise((r) => setTimeout(r, 20));
    }
    const open = (replayer as Libp2p).getConnections().length > 0;
    const seconds = (Date.now() - t0) / 1000;
    // What was pushed less what was still queued at the last look: what the node read (or its socket holds).
    const read = (pushed * frame.byteLength - left) / 1e9;
    const cpu = (cpuMs(pid) - c0) / 1000;
    const bans = await metricOf(node.url, 'ombra_peer_bans_total');
    console.log(
      `  ${(frame.byteLength / 2 ** 20).toFixed(1)} MiB frames: ${read.toFixed(2)} GB sent in ${seconds.toFixed(1)} s, node CPU ${cpu.toFixed(1)} s; bans ${bans}; connected at the end: ${open}`,
    );
    assert.equal(bans, 1, 'the replayer is banned');
    assert.ok(!open, 'and hung up on');
    assert.ok(read < 0.1, `${read.toFixed(2)} GB of replays went out before the hang-up`);
    // Banned, it stays out: a dial back is refused after the handshake, never let in (and hung up on) again.
    const connects = () => node!.stderr().split(replayer.peerId.toString()).length;
    const before = connects();
    const addr = multiaddr((await getJson<{ addresses: string[] }>(node.url, '/api/chain/network')).addresses[0]);
    for (let i = 0; i < 3; i++) await replayer.dial(addr).catch(() => undefined);
    await waitFor(async () => ((replayer as Libp2p).getConnections().length === 0 ? true : undefined), 5000);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(connects(), before, 'the node logged no connection of the banned peer');
  } finally {
    await replayer.stop();
    node?.child.kill('SIGTERM');
    await node?.exited;
    tmp.cleanup();
  }
});
