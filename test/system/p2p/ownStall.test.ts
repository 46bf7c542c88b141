/**
 * A node's own stall is not its peers' fault. An authority back from a 5 s SIGSTOP in the soak of
 * 2026-11-28 read a follower's gossip of the pause in one burst, counted it as replays and banned
 * the follower for 10 minutes. Here a real `ombra start` process is paused while a peer sends it
 * 300 stale copies of a transaction: read after SIGCONT they cost the peer nothing; the same copies
 * sent to the running node are rejected beyond its budget, as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { multiaddr } from '@multiformats/multiaddr';
import { hostileLibp2p } from '../../helpers/hostilePeer.ts';
import { startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { transfer } from '../../helpers/coreSupport.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';

const COPIES = 300;

/** The same JSON text with `n` leading spaces: the same transaction to a JSON reader, a new gossip message. */
const variant = (json: string, n: number) => new TextEncoder().encode(' '.repeat(n) + json);

/** The node's count of rejected transaction gossip, from its /metrics. */
async function rejectedTxGossip(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^ombra_gossip_rejected_total\{topic="tx"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

test('300 stale copies read after a SIGSTOP cost their sender nothing; sent to the running node they are rejected', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ombra-stall-'));
  const node = await startNodeProcess(['--dev', '--data-dir', join(dir, 'data'), '--log-format', 'json']);
  const peer = await hostileLibp2p(true);
  try {
    const net = (await (await fetch(`${node.url}/api/chain/network`)).json()) as { addresses: string[] };
    const topic = `/ombra/${String(((await (await fetch(`${node.url}/api/chain/block/0`)).json()) as { hash: string }).hash).slice(0, 16)}/tx/1`;
    peer.services.pubsub.subscribe(topic);
    await peer.dial(multiaddr(net.addresses[0]));
    await waitFor(async () => (peer.services.pubsub.getSubscribers(topic).length > 0 ? true : undefined));
    const tx = transfer(DEV_KEYS[1], { to: DEV_KEYS[2].address, fee: '1000', timestamp: Date.now() });
    const sent = await fetch(`${node.url}/api/chain/tx`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(tx),
    });
    assert.equal(sent.status, 200, await sent.text());
    const json = JSON.stringify(tx);
    const copies = async (from: number) => {
      for (let i = from; i < from + COPIES; i++) await peer.services.pubsub.publish(topic, variant(json, i)).catch(() => undefined);
    };

    // Paused: the copies wait in the socket and are read in one burst after SIGCONT.
    node.child.kill('SIGSTOP');
    await copies(1);
    await new Promise((r) => setTimeout(r, 3000));
    node.child.kill('SIGCONT');
    await waitFor(async () => (/this node stalled/.test(node.stderr()) ? true : undefined), 20_000);
    // Long enough for the burst to be read (it is queued before the first late tick).
    await new Promise((r) => setTimeout(r, 2000));
    assert.equal(await rejectedTxGossip(node.url), 0, 'nothing read through the stall was rejected');
    assert.doesNotMatch(node.stderr(), /peer banned/);

    // Running, past the grace: the same kind of copies spend the budget and are rejected.
    await new Promise((r) => setTimeout(r, 6000));
    await copies(COPIES + 1);
    const rejected = await waitFor(async () => {
      const n = await rejectedTxGossip(node.url);
      return n > 0 ? n : undefined;
    }, 20_000);
    assert.ok(rejected > 0, `${rejected} rejected`);
  } finally {
    await peer.stop();
    node.child.kill('SIGCONT');
    node.child.kill('SIGTERM');
    await node.exited;
    rmSync(dir, { recursive: true, force: true });
  }
});
