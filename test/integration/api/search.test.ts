/** GET /api/chain/search/:q over the recorded simulated chain: one search per id kind finds that kind, typed as documented. */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { schemaChecker } from '../../helpers/openapiCheck.ts';
import { DEV_KEYS, type TestChain } from '../../helpers/testChain.ts';
import { send } from '../../helpers/economy.ts';
import { assertError, get, withChain } from '../../helpers/apiSupport.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);
const txs: Record<string, any>[] = lines.slice(2).flatMap((b: { transactions: Record<string, any>[] }) => b.transactions);

/** The chain with every simulated block imported, and a check of answers against the search's documented schema. */
async function simulated<T>(fn: (c: TestChain, valid: (body: unknown) => void) => Promise<T>): Promise<T> {
  return withChain(
    async (c) => {
      for (const b of lines.slice(2)) await c.node.importBlock(b);
      const doc = (await get(c, '/api/openapi.json')).body;
      const schema = doc.paths['/api/chain/search/{q}'].get.responses['200'].content['application/json'].schema;
      const check = schemaChecker(doc);
      return fn(c, (body) => {
        const problem = check(schema, body);
        assert.equal(problem, null, `${problem}: ${JSON.stringify(body).slice(0, 400)}`);
      });
    },
    { genesis },
  );
}

/** The hits of a search, checked against the document. */
async function search(c: TestChain, valid: (body: unknown) => void, q: string): Promise<any[]> {
  const res = await get(c, `/api/chain/search/${encodeURIComponent(q)}`);
  assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
  valid(res.body);
  return res.body;
}

const first = <T>(m: Map<string, T>): [string, T] => {
  const e = [...m.entries()][0];
  assert.ok(e, 'the fixture holds one');
  return e;
};

test('every id kind the simulated chain holds is found by its id and typed as its kind', () =>
  simulated(async (c, valid) => {
    const s = c.node.state().records;
    const find = async (q: string, type: string, match: (data: any) => boolean) => {
      const hits = await search(c, valid, q);
      assert.ok(
        hits.some((h) => h.type === type && match(h.data)),
        `${q} should find a ${type}: ${JSON.stringify(hits).slice(0, 400)}`,
      );
    };
    const block = lines[5];
    await find(String(block.index), 'block', (d) => d.hash === block.hash);
    await find(block.hash, 'block', (d) => d.index === block.index);
    await find(txs[0].hash as string, 'tx', (d) => d.hash === txs[0].hash);
    await find(txs[0].from as string, 'address', (d) => d.address === txs[0].from);
    const [taskId] = first(s.tasks);
    await find(taskId, 'task', (d) => d.taskId === taskId);
    const [runId, run] = first(s.runs);
    await find(runId, 'run', (d) => d.agentRunId === runId && d.status === run.status);
    const conversationId = String(txs.find((x) => x.type === 'CHAT_TURN')?.conversationId);
    await find(conversationId, 'conversation', (d) => d.conversationId === conversationId);
    for (const [kind, records] of [
      ['art', s.nfts],
      ['image', s.imageNfts],
      ['audio', s.audioNfts],
    ] as const) {
      const [tokenId, n] = first(records as Map<string, { owner: string }>);
      await find(tokenId, 'nft', (d) => d.kind === kind && d.tokenId === tokenId && d.owner === n.owner);
    }
    const [postId, post] = first(s.posts);
    await find(postId, 'post', (d) => d.postId === postId && d.author === post.author);
    const [siteId, site] = first(s.webSites);
    await find(siteId, 'site', (d) => d.siteId === siteId && d.name === site.name);
    const [alias, a] = first(s.webAliases);
    await find(alias, 'alias', (d) => d.alias === alias && d.siteId === a.siteId);
    const [releaseId] = first(s.webReleases);
    await find(releaseId, 'release', (d) => d.releaseId === releaseId);
    const [fileId] = first(s.webFiles);
    await find(fileId, 'file', (d) => d.fileId === fileId);
    const [minerId, miner] = first(s.miners);
    await find(minerId, 'miner', (d) => d.id === minerId && d.address === miner.address);
    const [dmId] = first(s.dmIds);
    await find(dmId, 'dm', (d) => d.dmId === dmId);
  }));

test('profiles and miners are found by the start of their name, any case, at most `limit` of them', () =>
  simulated(async (c, valid) => {
    const names = txs.filter((x) => x.type === 'SOCIAL_PROFILE_SET').map((x) => x.displayName as string);
    assert.ok(names.length > 1);
    const profiles = (await search(c, valid, 'SIM USER')).filter((h) => h.type === 'profile');
    assert.deepEqual(profiles.map((h) => h.data.displayName).sort(), [...new Set(names)].sort());
    const one = txs.find((x) => x.type === 'SOCIAL_PROFILE_SET') as Record<string, string>;
    const exact = await search(c, valid, one.displayName);
    assert.ok(exact.some((h) => h.type === 'profile' && h.data.address === one.from));
    const miners = (await search(c, valid, 'sim-miner')).filter((h) => h.type === 'miner');
    assert.equal(miners.length, c.node.state().records.miners.size);
    const profiled = new Set(txs.filter((x) => x.type === 'SOCIAL_PROFILE_SET').map((x) => x.from)).size;
    assert.equal((await search(c, valid, 'sim user')).length, Math.min(20, profiled));
    assert.equal((await get(c, '/api/chain/search/sim?limit=2')).body.length, 2);
  }));

test('a renamed profile is found by its new name only', () =>
  withChain(async (c) => {
    await send(c, 3, 'SOCIAL_PROFILE_SET', { displayName: 'Old Name', bio: '', fee: '1000' });
    await c.produce();
    assert.equal((await get(c, '/api/chain/search/old%20na')).body[0]?.data.displayName, 'Old Name');
    await send(c, 3, 'SOCIAL_PROFILE_SET', { displayName: 'New Name', bio: '', fee: '1000' });
    await c.produce();
    assert.deepEqual((await get(c, '/api/chain/search/old%20na')).body, []);
    assert.deepEqual((await get(c, '/api/chain/search/new%20name')).body, [
      { type: 'profile', data: { address: DEV_KEYS[3].address, displayName: 'New Name' } },
    ]);
  }));

test('0x forms, 2-hex address prefixes and transaction-hash prefixes are found', () =>
  simulated(async (c, valid) => {
    const tx = txs.at(-1) as { hash: string; from: string };
    const hex = tx.from.slice(2);
    const byAddress = (hits: any[]) => hits.some((h) => h.type === 'address' && h.data.address === tx.from);
    assert.ok(byAddress(await search(c, valid, `0x${hex}`)), 'an address written 0x…');
    assert.ok(byAddress(await search(c, valid, `0X${hex.toUpperCase()}`)), 'any case');
    assert.ok(byAddress(await search(c, valid, hex)), 'bare hex');
    const txHit = (hits: any[]) => hits.some((h) => h.type === 'tx' && h.data.hash === tx.hash);
    assert.ok(txHit(await search(c, valid, `0x${tx.hash}`)), 'a hash written 0x…');
    for (const n of [2, 6, 12]) {
      const prefix = tx.hash.slice(0, n);
      const hits = await search(c, valid, prefix);
      assert.ok(hits.length > 0 && hits.length <= 10, `${n} hex: ${hits.length} hits`);
      for (const h of hits.filter((x) => x.type === 'tx')) assert.ok(h.data.hash.startsWith(prefix), h.data.hash);
      if (n >= 6) assert.ok(txHit(hits), `the transaction by the first ${n} hex of its hash`);
    }
    const two = await search(c, valid, hex.slice(0, 2));
    assert.ok(
      two.some((h) => h.type === 'address' && h.data.address.startsWith(`ox${hex.slice(0, 2)}`)),
      'an address by its first 2 hex',
    );
  }));

test('bad queries are 400 INVALID_PARAMS with {error, code}: empty, too long, a bad limit', () =>
  withChain(async (c) => {
    for (const path of [
      '/api/chain/search/%20%20',
      `/api/chain/search/${'a'.repeat(129)}`,
      '/api/chain/search/abc?limit=x',
      '/api/chain/search/abc?limit=-1',
    ]) {
      assertError(await get(c, path), 400, 'INVALID_PARAMS');
    }
    assert.deepEqual((await get(c, '/api/chain/search/0?limit=0')).body, []);
  }));
