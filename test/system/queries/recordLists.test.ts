/**
 * Miner and token lists as numbered rows (projections/recordLists.ts, queries/recordListPage.ts):
 * every page of every list (all miners oldest first, all tokens of a kind and one owner's newest
 * first), at offsets spread across and past thousands of records, equals the list computed the
 * slow way (every record sorted by the lists' order, sliced); folded through the projection
 * runner with a cache of one owner's count, through a restart halfway.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import type { BlockEvent } from '../../../projections/events.ts';
import { type ListedKind, recordListsProjection } from '../../../projections/recordLists.ts';
import { recordListPage } from '../../../queries/recordListPage.ts';
import { pageOffsets } from '../../helpers/pageOffsets.ts';
import { foldEvents, openRunner } from '../../helpers/runnerStore.ts';

const OWNERS = Array.from({ length: 5 }, (_, i) => `0x${String(i).repeat(40)}`);
const TOKEN_KINDS: ListedKind[] = ['nfts', 'imageNfts', 'audioNfts'];

/** What one block creates: miners, and tokens of each kind by owner index. */
interface Made {
  miners: number;
  tokens: [kind: number, owner: number][];
}

interface Created {
  miners: { id: string; registeredAt: number }[];
  tokens: { kind: ListedKind; tokenId: string; owner: string; blockIndex: number }[];
}

/** The block events creating `made`, block after block from height 1, and every record they create. */
function build(made: readonly Made[]): { events: BlockEvent[]; created: Created } {
  const created: Created = { miners: [], tokens: [] };
  const events = made.map((m, b): BlockEvent => {
    const index = b + 1;
    const records: Record<string, Map<string, unknown>> = {
      miners: new Map(),
      nfts: new Map(),
      imageNfts: new Map(),
      audioNfts: new Map(),
    };
    for (let i = 0; i < m.miners; i++) {
      const miner = { id: sha256Hex(`miner ${index} ${i}`), registeredAt: index };
      records.miners.set(miner.id, miner);
      created.miners.push(miner);
    }
    m.tokens.forEach(([k, o], i) => {
      const token = { kind: TOKEN_KINDS[k], tokenId: sha256Hex(`token ${index} ${i}`), owner: OWNERS[o], blockIndex: index };
      records[token.kind].set(token.tokenId, token);
      created.tokens.push(token);
    });
    return {
      type: 'block',
      block: { index, transactions: [] },
      txs: [],
      diff: { accounts: new Map(), records, supply: {} },
      balances: [],
      emitted: 0n,
      replay: false,
    } as unknown as BlockEvent;
  });
  return { events, created };
}

/** Every list's definition, the slow way: the path-like name, its kind and owner, and its ids in order. */
function lists(created: Created): { name: string; kind: ListedKind; owner?: string; ids: string[] }[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const miners = [...created.miners].sort((a, b) => a.registeredAt - b.registeredAt || cmp(a.id, b.id)).map((m) => m.id);
  const out: { name: string; kind: ListedKind; owner?: string; ids: string[] }[] = [{ name: 'miners', kind: 'miners', ids: miners }];
  for (const kind of TOKEN_KINDS) {
    const mine = created.tokens.filter((x) => x.kind === kind).sort((a, b) => b.blockIndex - a.blockIndex || cmp(a.tokenId, b.tokenId));
    out.push({ name: kind, kind, ids: mine.map((x) => x.tokenId) });
    for (const owner of OWNERS)
      out.push({ name: `${kind} of ${owner}`, kind, owner, ids: mine.filter((x) => x.owner === owner).map((x) => x.tokenId) });
  }
  return out;
}

/** Folds `events` through a runner (restarted halfway) with a cache of one owner's count, then checks every page. */
async function foldAndCheck(made: readonly Made[]): Promise<number> {
  const { events, created } = build(made);
  const dir = mkdtempSync(join(tmpdir(), 'ombra-lists-'));
  const info = { recordCache: 1 };
  try {
    const half = Math.floor(events.length / 2);
    const first = await openRunner(dir, [recordListsProjection], info);
    await foldEvents(first.runner, events.slice(0, half));
    await first.close();
    const { runner, close } = await openRunner(dir, [recordListsProjection], info);
    await foldEvents(runner, events.slice(half));
    assert.ok(runner.state(recordListsProjection).owners.counts.size <= 1, 'at most one owner count in memory');
    let pages = 0;
    const rows = await runner.readable(recordListsProjection);
    const counts = runner.state(recordListsProjection).counts;
    for (const list of lists(created))
      for (const offset of pageOffsets(list.ids.length))
        for (const limit of [1, 7, 100]) {
          const got = await recordListPage(rows, list.kind, limit, offset, list.owner, counts[list.kind]);
          assert.deepEqual(
            got,
            { total: list.ids.length, ids: list.ids.slice(offset, offset + limit) },
            `${list.name} offset ${offset} limit ${limit}`,
          );
          pages++;
        }
    await close();
    return pages;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('random blocks of miners and tokens: every page of every list, at every offset, is the list sliced', async () => {
  const block = fc.record({
    miners: fc.nat(3),
    tokens: fc.array(fc.tuple(fc.nat(2), fc.nat(OWNERS.length - 1)), { maxLength: 6 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(block, { minLength: 1, maxLength: 30 }), async (made) => {
      assert.ok((await foldAndCheck(made)) > 0);
    }),
    { numRuns: 20, seed: 20261123 },
  );
});

test('thousands of records: pages deep in each list equal the list sliced', async () => {
  // 300 blocks: 4 miners and 10 tokens a block, owners and kinds interleaved.
  const made: Made[] = Array.from({ length: 300 }, (_, b) => ({
    miners: 4,
    tokens: Array.from({ length: 10 }, (_, i): [number, number] => [(b + i) % 3, (b * 7 + i) % OWNERS.length]),
  }));
  assert.ok((await foldAndCheck(made)) > 300);
});
