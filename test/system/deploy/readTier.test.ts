/**
 * The read tier of docs/scaling.md with real processes and the real HAProxy
 * (deploy/haproxy.cfg.template): a follower that is behind is drained and returns; a transaction
 * posted through the balancer is answered as the authority answers it and gets into a block; a
 * client tailing /api/chain/events (the typed client, then `ombra tail`) whose follower is killed
 * resumes through the balancer on another follower with every block exactly once, in order.
 * Skipped with a line where haproxy is not installed (.ci/run installs it).
 */
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { missing } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { OmbraClient } from '../../../client/index.ts';
import { signTx } from '../../../core/txCodec.ts';
import { REPO_ROOT } from '../../helpers/cliRun.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { haveHaproxy, startReadTier, type ReadTier } from '../../helpers/readTier.ts';
import { aheadPeer } from '../../helpers/sealedAhead.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';

let tier: ReadTier;

before(async () => {
  if (!haveHaproxy()) return;
  // uvu reports a failing hook without its error: say it here.
  tier = await startReadTier({ followers: 3 }).catch((e: Error) => {
    console.error(`read tier did not start: ${e.message}`);
    throw e;
  });
});
after(async () => {
  await tier?.stop();
});

const json = async (url: string, path: string, init?: RequestInit) => {
  const res = await fetch(`${url}${path}`, init);
  return { status: res.status, body: (await res.json()) as any };
};
const height = async (url: string) => (await json(url, '/api/chain/height')).body.height as number;

/** Which follower HAProxy routes the one open stream to (its current sessions), or -1. */
async function servingFollower(): Promise<number> {
  for (let i = 0; i < tier.followers.length; i++) if (tier.followers[i] && (await sessionsOf(i)) > 0) return i;
  return -1;
}
async function sessionsOf(i: number): Promise<number> {
  return Number((await tier.serverStatus(i, 'scur')) || 0);
}

/** Heights in order: each one more than the one before, none twice. */
function assertConsecutive(ids: number[], what: string): void {
  for (let i = 1; i < ids.length; i++) assert.equal(ids[i], ids[i - 1] + 1, `${what}: ${ids.slice(Math.max(0, i - 3), i + 3)}`);
}

/** The height an event id names (`<height>:<hash>`, docs/http.md). */
const heightOfId = (id: unknown): number => Number(String(id).split(':')[0]);

test('a follower behind the head its peers show is drained (503 behind) and back in rotation once its peer is gone', {
  skip: missing('haproxy'),
}, async () => {
  assert.ok(tier, 'the read tier started');
  const f = tier.followers[2];
  if (!f) throw new Error('follower 3 is not running');
  const network = (await json(f.url, '/api/chain/network')).body as { addresses: string[] };
  const genesisHash = (await json(f.url, '/api/chain/block/0')).body.hash as string;
  const peer = await aheadPeer(network.addresses[0], genesisHash, DEV_KEYS[0]);
  try {
    const far = (await height(tier.authority.url)) + 1000;
    const behind = await waitFor(
      async () => {
        await peer.show(far);
        const h = await json(f.url, '/api/health');
        return h.status === 503 ? h.body : undefined;
      },
      20_000,
      200,
    );
    assert.equal(behind.status, 'behind');
    assert.equal(behind.networkHeight, far);
    await waitFor(async () => ((await tier.serverStatus(2)).startsWith('DOWN') ? true : undefined), 20_000, 100);
    // Drained: the balancer answers from the others.
    for (let i = 0; i < 6; i++) assert.equal((await json(tier.url, '/api/health')).body.status, 'ok');
  } finally {
    await peer.stop();
  }
  await waitFor(async () => ((await tier.serverStatus(2)) === 'UP' ? true : undefined), 20_000, 100);
});

test('POST /api/chain/tx through the balancer answers as the authority does, and the transaction gets into a block', {
  skip: missing('haproxy'),
}, async () => {
  assert.ok(tier, 'the read tier started');
  const a = tier.authority.url;
  const post = (url: string, body: string) =>
    json(url, '/api/chain/tx', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const transfer = (nonce: number, amount: string) =>
    signTx(
      { type: 'TRANSFER', from: DEV_KEYS[3].address, to: DEV_KEYS[4].address, amount, fee: '1000', nonce, timestamp: Date.now() },
      DEV_KEYS[3],
    );
  const forged = { ...transfer(0, '5'), amount: '6' };
  for (const body of ['{not json', JSON.stringify(forged), JSON.stringify({ ...transfer(0, '5'), nonce: 7 })]) {
    const [viaTier, direct] = [await post(tier.url, body), await post(a, body)];
    assert.equal(viaTier.status, direct.status, body.slice(0, 40));
    assert.deepEqual(viaTier.body, direct.body);
  }
  const tx = transfer(0, '5');
  const accepted = await post(tier.url, JSON.stringify(tx));
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.deepEqual(accepted.body, { ok: true, hash: tx.hash });
  const confirmed = await waitFor(
    async () => {
      const r = await json(a, `/api/chain/tx/${tx.hash}`);
      return r.status === 200 && r.body.status === 'confirmed' ? r.body : undefined;
    },
    20_000,
    100,
  );
  assert.ok(confirmed.blockHeight > 0);
  // The same transaction again: the authority and the tier refuse it alike.
  const [again, againDirect] = [await post(tier.url, JSON.stringify(tx)), await post(a, JSON.stringify(tx))];
  assert.equal(again.status, againDirect.status);
  assert.equal(again.body.code, againDirect.body.code);
});

test('a client tailing /api/chain/events whose follower is killed resumes through the balancer: every block once, in order', {
  skip: missing('haproxy'),
}, async () => {
  assert.ok(tier, 'the read tier started');
  const ids: number[] = [];
  let hellos = 0;
  const ctl = new AbortController();
  const done = new OmbraClient(tier.url).subscribe({
    signal: ctl.signal,
    backoff: () => 100,
    onEvent: (e) => {
      if (e.event === 'hello') hellos++;
      if (e.event === 'block') ids.push(heightOfId(e.id));
    },
  });
  try {
    await waitFor(async () => (ids.length >= 3 ? true : undefined), 20_000);
    const serving = await waitFor(async () => {
      const i = await servingFollower();
      return i >= 0 ? i : undefined;
    });
    const killedAt = ids[ids.length - 1];
    await tier.kill(serving);
    await waitFor(async () => (hellos >= 2 && ids[ids.length - 1] >= killedAt + 8 ? true : undefined), 30_000);
    assert.equal(await servingFollower().then((i) => i !== serving && i >= 0), true, 'resumed on another follower');
  } finally {
    ctl.abort();
    await done;
  }
  assertConsecutive(ids, 'typed client');
});

test('`ombra tail` through the balancer survives the kill of its follower with every block once, in order', {
  skip: missing('haproxy'),
}, async () => {
  assert.ok(tier, 'the read tier started');
  const tail = spawn(process.execPath, ['cli/bin.js', 'tail', '--url', tier.url, '--json', '--events', 'block'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  tail.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  tail.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise((r) => tail.once('exit', r));
  const ids = () =>
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => heightOfId(JSON.parse(l).id));
  try {
    await waitFor(async () => (ids().length >= 3 ? true : undefined), 20_000);
    const serving = await waitFor(async () => {
      const i = await servingFollower();
      return i >= 0 ? i : undefined;
    });
    const killedAt = ids()[ids().length - 1];
    await tier.kill(serving);
    await waitFor(async () => (ids()[ids().length - 1] >= killedAt + 8 ? true : undefined), 30_000);
    assert.match(err, /resuming after \d+/);
  } finally {
    tail.kill('SIGINT');
    await exited;
  }
  assertConsecutive(ids(), 'ombra tail');
});
