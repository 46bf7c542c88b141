/**
 * The bounded record and account cache (core/recordCache.ts) changes nothing a node computes or
 * serves: with a cache of 0-3 finished records a kind and 1-4 accounts (and as many address-history
 * counts), the same blocks give the same state roots (every import checks them), the same read
 * models, the same API answers and the same admissions and produced blocks as with every record
 * and account in memory; through restarts, batch imports and a reorganisation over evicted ones.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import { parseGenesis, type Genesis } from '../../../core/genesis.ts';
import { RECORD_KINDS, type ChainState } from '../../../core/state.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { DEV_GENESIS, DEV_KEYS } from '../../helpers/coreSupport.ts';
import { act, pureTraffic, TaskTraffic, type Act } from '../../helpers/taskTraffic.ts';
import { openTestChain, type TestChain } from '../../helpers/testChain.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const FIXTURE_GENESIS = parseGenesis(lines[0].genesis);
const FIXTURE_BLOCKS = lines.slice(2) as Block[];

/** The GET paths that read records: every record of `full` (a node holding them all) by id, and every list. */
function pathsOf(full: ChainState): string[] {
  const r = full.records;
  const paths = [
    '/api/chain/stats',
    '/api/miners?limit=100',
    '/api/chain/tasks?limit=100',
    '/api/tasks/active?limit=100',
    '/api/nft/?limit=100',
    '/api/image/?limit=100',
    '/api/audio/?limit=100',
    '/api/social/feed?limit=100',
    '/api/tokenomics/holders?limit=100',
    '/api/tokenomics/holders?limit=3&offset=2',
    '/api/tokenomics/distribution',
  ];
  for (const id of r.tasks.keys()) paths.push(`/api/chain/task/${id}`, `/api/tasks/${id}`);
  for (const id of r.runs.keys()) paths.push(`/api/agent/v6/run/${id}`, `/api/agent/v6/run/${id}/steps`);
  for (const [id, m] of r.miners) paths.push(`/api/miners/${id}`, `/api/miners/by-address/${m.address}`);
  for (const [id, n] of r.nfts) paths.push(`/api/nft/${id}`, `/api/nft/${id}/svg`, `/api/nft/owner/${n.owner}`);
  for (const [id, n] of r.imageNfts) paths.push(`/api/image/${id}`, `/api/image/${id}/file`, `/api/image/owner/${n.owner}`);
  for (const [id, n] of r.audioNfts) paths.push(`/api/audio/${id}`, `/api/audio/${id}/file`, `/api/audio/owner/${n.owner}`);
  for (const id of r.posts.keys()) paths.push(`/api/social/post/${id}`);
  for (const id of r.intents.keys()) paths.push(`/api/social/intents/${id}`);
  for (const id of r.blobs.keys()) paths.push(`/api/social/blob/${id}`);
  for (const id of r.webSites.keys()) paths.push(`/api/web/site/${id}/releases`);
  for (const id of r.webReleases.keys()) paths.push(`/api/web/release/${id}/bundle`);
  for (const id of r.webAliases.keys()) paths.push(`/api/web/alias/${id}/bundle`, `/web/${id}/`);
  for (const id of r.webUploads.keys()) paths.push(`/api/web/file/${id}`, `/api/web/file/${id}/content`);
  for (const a of full.accounts.keys())
    paths.push(
      `/api/chain/account/${a}`,
      `/api/social/queue/${a}`,
      `/api/wallet/balance/${a}`,
      `/api/address/${a}`,
      `/api/address/${a}/txs?limit=5&offset=1`,
      `/api/miners/by-address/${a}`,
      `/api/chain/search/${a.slice(2, 6)}`,
    );
  return paths;
}

/** Status and body of every path. */
async function answers(c: TestChain, paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const res = await c.app.request(p);
    out.push(`${p} ${res.status} ${await res.text()}`);
  }
  return out;
}

/** What must be equal between two nodes: head, read models (rows and saved state) and answers. */
async function sameAs(small: TestChain, full: TestChain, what: string): Promise<void> {
  assert.equal(small.node.head().hash, full.node.head().hash, `${what}: head`);
  assert.deepEqual(await small.node.runner.dump(), await full.node.runner.dump(), `${what}: read models`);
  const paths = pathsOf(full.node.state());
  const [a, b] = [await answers(small, paths), await answers(full, paths)];
  const differ = paths.filter((_, i) => a[i] !== b[i]);
  assert.deepEqual(
    differ,
    [],
    `${what}: API answers differ: ${differ.slice(0, 3).map((p) => `${p}: ${a[paths.indexOf(p)].slice(0, 300)} vs ${b[paths.indexOf(p)].slice(0, 300)}`)}`,
  );
}

/** The number of records the state holds in memory, over every kind. */
const held = (s: ChainState): number => RECORD_KINDS.reduce((n, k) => n + s.records[k].size, 0);

/** Asserts the cache holds at most `cap` finished records of each kind besides the open ones, and at most `accounts` accounts. */
function bounded(s: ChainState, cap: number, what: string, accounts = Number.POSITIVE_INFINITY): void {
  assert.ok(s.accounts.size <= accounts, `${what}: ${s.accounts.size} accounts held`);
  for (const k of RECORD_KINDS) {
    const open = (s.open as Record<string, Set<string>>)[k]?.size ?? 0;
    assert.ok(s.records[k].size - open <= cap, `${what}: ${k} holds ${s.records[k].size} (${open} open)`);
  }
}

test('the simulated chain (every transaction type) with a cache of 0-3 records a kind and 1-4 accounts: same roots, read models and answers', async () => {
  const clock = FIXTURE_BLOCKS[FIXTURE_BLOCKS.length - 1].timestamp + 1000;
  const full = await openTestChain({ genesis: FIXTURE_GENESIS, clock, recordCache: Number.POSITIVE_INFINITY });
  try {
    for (const b of FIXTURE_BLOCKS) await full.node.importBlock(b);
    for (const cap of [0, 1, 3]) {
      const small = await openTestChain({ genesis: FIXTURE_GENESIS, clock, recordCache: cap, accountCache: cap + 1 });
      try {
        // Half block by block, half in catch-up batches, with a restart in between.
        const half = Math.floor(FIXTURE_BLOCKS.length / 2);
        for (const b of FIXTURE_BLOCKS.slice(0, half)) await small.node.importBlock(b);
        await small.close();
        const again = await openTestChain({ genesis: FIXTURE_GENESIS, clock, recordCache: cap, accountCache: cap + 1, dir: small.dir });
        for (let i = half; i < FIXTURE_BLOCKS.length; i += 7) await again.node.importBlocks(FIXTURE_BLOCKS.slice(i, i + 7));
        bounded(again.node.state(), cap, `cap ${cap}`, cap + 1);
        assert.ok(held(again.node.state()) < held(full.node.state()), `cap ${cap}: records were evicted`);
        await sameAs(again, full, `cap ${cap}`);
        await again.destroy();
      } finally {
        await small.close().catch(() => undefined);
      }
    }
  } finally {
    await full.destroy();
  }
});

/** Blocks of random task and agent traffic, built on a complete in-memory state, with the transactions offered for each. */
function trafficBlocks(acts: readonly Act[]): { blocks: Block[]; txs: SignedTx[][] } {
  const { blocks } = pureTraffic(DEV_GENESIS, acts);
  return { blocks: blocks.map((b) => b.block), txs: blocks.map((b) => b.offered) };
}

/** Submits `txs` to a node's mempool and produces a block at `timestamp`: the outcome of each and the block. */
async function submitAndProduce(c: TestChain, txs: readonly SignedTx[], timestamp: number, g: Genesis): Promise<string[]> {
  const out: string[] = [];
  for (const tx of txs)
    out.push(
      await c.node.submitTx(tx).then(
        () => 'ok',
        (e: { code?: string }) => e.code ?? String(e),
      ),
    );
  const key = DEV_KEYS.find((k) => k.address === g.authorities[0])!;
  out.push((await c.node.produce(key, timestamp)).hash);
  return out;
}

test('random task and agent traffic with a cache of 0-3 records and 1-4 accounts: imports, admissions and produced blocks match an unbounded cache', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(act, { minLength: 10, maxLength: 50 }),
      fc.integer({ min: 0, max: 3 }),
      fc.integer({ min: 1, max: 4 }),
      async (acts, cap, accountCache) => {
        const { blocks, txs } = trafficBlocks(acts);
        const clock = blocks[blocks.length - 1].timestamp + 1000;
        const nodes = await Promise.all(
          [Number.POSITIVE_INFINITY, cap, Number.POSITIVE_INFINITY, cap].map((recordCache) =>
            openTestChain({ genesis: DEV_GENESIS, clock, recordCache, accountCache: recordCache === cap ? accountCache : undefined }),
          ),
        );
        const [full, small, fullProducer, smallProducer] = nodes;
        try {
          for (const b of blocks) await full.node.importBlock(b);
          await small.node.importBlocks(blocks);
          bounded(small.node.state(), cap, `cap ${cap}`, accountCache);
          await sameAs(small, full, `imported, cap ${cap}`);
          // The same transactions offered to two producers: the same admissions and the same blocks.
          for (const [i, b] of blocks.entries()) {
            const a = await submitAndProduce(fullProducer, txs[i], b.timestamp, DEV_GENESIS);
            const z = await submitAndProduce(smallProducer, txs[i], b.timestamp, DEV_GENESIS);
            assert.deepEqual(z, a, `block ${i + 1}: admissions and produced block`);
          }
          await sameAs(smallProducer, fullProducer, `produced, cap ${cap}`);
        } finally {
          for (const n of nodes) await n.destroy();
        }
      },
    ),
    { numRuns: 8, seed: 20260514 },
  );
});

test('a reorganisation over evicted records and accounts steps back through the undo log and matches a node that never saw the old branch', async () => {
  const { blocks } = trafficBlocks(fc.sample(fc.array(act, { minLength: 60, maxLength: 60 }), { numRuns: 1, seed: 7 })[0]);
  const ancestor = blocks.length - 4;
  const clock = blocks[blocks.length - 1].timestamp + 1000;
  const small = await openTestChain({ genesis: DEV_GENESIS, clock: clock + 4_000_000, recordCache: 1, accountCache: 2 });
  // The branch: from the ancestor, in later slots, one block longer, with other work than the old one.
  const brancher = await openTestChain({
    genesis: DEV_GENESIS,
    clock: clock + 5 * DEV_GENESIS.blockTimeMs,
    recordCache: Number.POSITIVE_INFINITY,
  });
  const fresh = await openTestChain({ genesis: DEV_GENESIS, clock: clock + 4_000_000, recordCache: Number.POSITIVE_INFINITY });
  try {
    for (const b of blocks) await small.node.importBlock(b);
    for (const b of blocks.slice(0, ancestor)) await brancher.node.importBlock(b);
    // New work on older tasks and runs, whose records the small node evicted long ago.
    const extra: SignedTx[] = [];
    const more = new TaskTraffic({
      state: brancher.node.state(),
      genesis: DEV_GENESIS,
      clock: () => brancher.now(),
      advance: () => undefined,
      height: () => brancher.node.nextHeight(),
      add: (tx) => extra.push(tx),
      produce: () => undefined,
    });
    more.tasks.push(...brancher.node.state().records.tasks.keys());
    more.runs.push(...brancher.node.state().records.runs.keys());
    const work = act.filter((a) => ['submit', 'request', 'respond', 'validate', 'claim', 'step', 'finish'].includes(a.k));
    for (const a of fc.sample(work, { numRuns: 40, seed: 3 })) more.perform(a);
    const outcomes: string[] = [];
    for (const tx of extra)
      outcomes.push(
        await brancher.node.submitTx(tx).then(
          () => 'ok',
          (e: { code?: string }) => e.code ?? String(e),
        ),
      );
    await brancher.produce(blocks.length - ancestor + 1);
    const branch = await brancher.node.store.blocksIn(ancestor + 1, brancher.node.head().index);
    console.log(
      'branch txs',
      branch.map((b) => b.transactions.map((x) => x.type).join(',')).join(' / '),
      'small held',
      held(small.node.state()),
    );
    await small.node.reorg(ancestor, branch);
    // The old branch's transactions went back to its mempool (node-local, not compared here).
    small.node.mempool.clear();
    for (const b of [...blocks.slice(0, ancestor), ...branch]) await fresh.node.importBlock(b);
    assert.ok(
      branch.some((b) => b.transactions.some((x) => x.type === 'TASK_SUBMIT')),
      'the branch reads records the copy must load',
    );
    await sameAs(small, fresh, 'after the reorganisation');
  } finally {
    for (const n of [small, brancher, fresh]) await n.destroy();
  }
});
