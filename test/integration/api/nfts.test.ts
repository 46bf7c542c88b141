/** Art NFTs (/api/nft, third fork) and the image and audio routes' fork gates. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import { DEV_KEYS, fixtureGenesis, type TestChain } from '../../helpers/testChain.ts';
import { fullTask, registerMiner, send } from '../../helpers/economy.ts';
import { assertError, get, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#123"/></svg>';
const LATE = { genesis: fixtureGenesis('late-forks-genesis.json') };

/** Rewards an nft_svg task answered with SVG and mints it to `owner`; returns the token id. */
async function mint(c: TestChain, owner: string, svg = SVG, prompt = 'a dark square'): Promise<string> {
  const { taskId, reward } = await fullTask(c, { taskType: 'nft_svg', prompt }, [svg, '<svg></svg>']);
  const task = c.node.state().records.tasks.get(taskId)!;
  const tokenId = sha256Hex(taskId + svg);
  await send(c, 1, 'ART_MINT', {
    tokenId,
    svg,
    owner,
    taskId,
    minerId: task.bestMinerId,
    seedHash: sha256Hex(prompt + task.bestMinerId + reward.hash),
    fee: '1000',
  });
  await c.produce();
  return tokenId;
}

async function miners(c: TestChain): Promise<void> {
  for (const i of [2, 3]) await registerMiner(c, i);
  await c.produce();
}

test('a minted SVG task: list, metadata without the SVG, the raw SVG with its headers, by owner, and on the task', () =>
  withChain(async (c) => {
    await miners(c);
    assert.deepEqual((await get(c, '/api/nft/')).body, { total: 0, items: [] });
    const first = await mint(c, A(5));
    const second = await mint(c, A(6), SVG.replace('#123', '#456'), 'another');
    const n = c.node.state().records.nfts.get(first)!;
    const meta = { tokenId: first, owner: A(5), taskId: n.taskId, minerId: n.minerId, mintedAt: n.mintedAt, blockIndex: n.blockIndex };
    assert.deepEqual((await get(c, `/api/nft/${first}`)).body, meta);
    const list = (await get(c, '/api/nft/')).body;
    assert.deepEqual(list.total, 2);
    assert.deepEqual(
      list.items.map((x: any) => x.tokenId),
      [second, first],
      'newest first',
    );
    assert.deepEqual(list.items[1], meta);
    assert.deepEqual((await get(c, '/api/nft?limit=1&offset=1')).body, { total: 2, items: [meta] });
    assert.deepEqual((await get(c, `/api/nft/owner/${A(5)}`)).body, { owner: A(5), count: 1, items: [meta] });
    assert.deepEqual((await get(c, `/api/nft/owner/${STRANGER}`)).body, { owner: STRANGER, count: 0, items: [] });
    const res = await c.app.request(`/api/nft/${first}/svg`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), SVG);
    assert.equal(res.headers.get('content-type'), 'image/svg+xml');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(res.headers.get('content-security-policy'), "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal((await get(c, `/api/chain/task/${n.taskId}`)).body.nft, first);
  }));

test('unknown tokens 404, bad ids and addresses 400', () =>
  withChain(async (c) => {
    const none = 'cd'.repeat(32);
    assertError(await get(c, `/api/nft/${none}`), 404, 'NOT_FOUND');
    assertError(await get(c, `/api/nft/${none}/svg`), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/nft/xyz'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/nft/xyz/svg'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/nft/owner/nobody'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/nft/?limit=abc'), 400, 'INVALID_PARAMS');
  }));

const PATHS = (base: string, file: string) => [
  `${base}/`,
  `${base}/${'ab'.repeat(32)}`,
  `${base}/${'ab'.repeat(32)}/${file}`,
  `${base}/owner/${STRANGER}`,
];

test('before forks 3, 4 and 5 every route answers 403 FORK_NOT_ACTIVE, even with bad parameters', () =>
  withChain(async (c) => {
    await c.produce(2);
    for (const p of [...PATHS('/api/nft', 'svg'), ...PATHS('/api/image', 'file'), ...PATHS('/api/audio', 'file'), '/api/nft/xyz']) {
      assertError(
        await get(c, p),
        403,
        'FORK_NOT_ACTIVE',
        /^fork not active: (art|image|audio) NFTs needs fork [345] \(height 1000000\), next block is 3$/,
      );
    }
  }, LATE));

test('after activation, with nothing minted, image and audio answer empty lists and 404 tokens', () =>
  withChain(async (c) => {
    for (const kind of ['image', 'audio']) {
      assert.deepEqual((await get(c, `/api/${kind}/`)).body, { total: 0, items: [] });
      assert.deepEqual((await get(c, `/api/${kind}/owner/${A(1)}`)).body, { owner: A(1), count: 0, items: [] });
      assertError(await get(c, `/api/${kind}/${'ab'.repeat(32)}`), 404, 'NOT_FOUND');
      assertError(await get(c, `/api/${kind}/${'ab'.repeat(32)}/file`), 404, 'NOT_FOUND');
      assertError(await get(c, `/api/${kind}/nope`), 400, 'INVALID_PARAMS');
      assertError(await get(c, `/api/${kind}/owner/nope`), 400, 'INVALID_PARAMS');
    }
  }));
