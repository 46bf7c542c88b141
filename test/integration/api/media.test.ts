/**
 * Image and audio NFTs end to end: every real fixture file uploaded in chunks out of order,
 * minted from a rewarded task, read back through every /api/image and /api/audio route; hostile
 * mints refused with 422 and nothing stored; replay rebuilds the same records and files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import { type AudioFacts, contentTypeOf, type MediaFacts } from '../../../core/media/mediaFacts.ts';
import { bytesOf } from '../../helpers/blobKit.ts';
import { EXPECTED, FIXTURES, fixture } from '../../helpers/mediaFixtures.ts';
import { schemaChecker } from '../../helpers/openapiCheck.ts';
import { SseClient, WsClient, withServedChain } from '../../helpers/streamClients.ts';
import { DEV_KEYS, fixtureGenesis, type TestChain } from '../../helpers/testChain.ts';
import { registerMiner, send } from '../../helpers/economy.ts';
import { mediaTask, mintFields, signedMint, uploadBlob } from '../../helpers/mediaKit.ts';
import { assertError, get, postTx, snapshot, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const kindOf = (f: MediaFacts) => ('width' in f ? 'image' : 'audio');

async function miners(c: TestChain): Promise<void> {
  for (const i of [2, 3]) await registerMiner(c, i);
  await c.produce();
}

/** Uploads fixture `name` (miner dev 2), runs its task and mints it to `owner`; returns what was minted. */
async function mintFixture(c: TestChain, name: string, owner: string) {
  const facts = EXPECTED[name];
  const blobId = await uploadBlob(c, 2, fixture(name), contentTypeOf(facts.format));
  const task = await mediaTask(c, kindOf(facts), blobId);
  const m = mintFields(task, blobId, facts, owner);
  await send(c, 1, m.type, m.fields);
  await c.produce();
  return { name, facts, blobId, task, tokenId: m.fields.tokenId };
}

/** Checks JSON answers against the schema the OpenAPI document declares for their route's 200. */
async function documented(c: TestChain): Promise<(path: string, body: unknown) => void> {
  const doc = (await get(c, '/api/openapi.json')).body;
  const check = schemaChecker(doc);
  return (path, body) => {
    const schema = doc.paths[path].get.responses['200'].content['application/json'].schema;
    assert.equal(check(schema, body), null, `${path}: ${JSON.stringify(body).slice(0, 300)}`);
  };
}

async function fileOf(c: TestChain, path: string, headers?: Record<string, string>) {
  const res = await c.app.request(path, headers ? { headers } : undefined);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

test('every real fixture, uploaded in chunks out of order, mints and reads back byte-identical through every route; replay rebuilds it all', () =>
  withChain(async (c) => {
    await miners(c);
    const conforms = await documented(c);
    const minted: Awaited<ReturnType<typeof mintFixture>>[] = [];
    for (const [k, { name }] of FIXTURES.entries()) minted.push(await mintFixture(c, name, A(k % 2 === 0 ? 5 : 6)));
    for (const { name, facts, blobId, task, tokenId } of minted) {
      const kind = kindOf(facts);
      const blob = c.node.state().records.blobs.get(blobId)!;
      assert.deepEqual([blob.status, blob.media], ['complete', facts], `${name}: the blob record holds the file's facts`);
      const n = c.node.state().records[kind === 'image' ? 'imageNfts' : 'audioNfts'].get(tokenId)!;
      const record = {
        tokenId,
        blobId,
        owner: n.owner,
        taskId: task.taskId,
        minerId: task.minerId,
        mintedAt: n.mintedAt,
        blockIndex: n.blockIndex,
        ...facts,
      };
      assert.deepEqual((await get(c, `/api/${kind}/${tokenId}`)).body, record, name);
      conforms(`/api/${kind}/{tokenId}`, record);
      const { res, bytes } = await fileOf(c, `/api/${kind}/${tokenId}/file`);
      assert.equal(res.status, 200);
      assert.deepEqual(bytes, fixture(name), `${name} comes back byte-identical`);
      assert.equal(res.headers.get('content-type'), contentTypeOf(facts.format));
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(res.headers.get('etag'), `"${sha256Hex(fixture(name))}"`);
      assert.equal(res.headers.get('content-length'), String(fixture(name).length));
      const again = await fileOf(c, `/api/${kind}/${tokenId}/file`, { 'If-None-Match': `"${sha256Hex(fixture(name))}"` });
      assert.deepEqual([again.res.status, again.bytes.length], [304, 0], 'a matching If-None-Match answers 304');
      assert.equal((await get(c, `/api/chain/task/${task.taskId}`)).body.nft, tokenId);
    }
    for (const kind of ['image', 'audio'] as const) {
      const mine = minted.filter((m) => kindOf(m.facts) === kind);
      const list = (await get(c, `/api/${kind}/`)).body;
      assert.equal(list.total, mine.length);
      assert.deepEqual(
        list.items.map((x: any) => x.tokenId),
        mine.map((m) => m.tokenId).reverse(),
        'newest first',
      );
      assert.deepEqual((await get(c, `/api/${kind}?limit=2&offset=1`)).body.items, list.items.slice(1, 3));
      const owned = (await get(c, `/api/${kind}/owner/${A(5)}`)).body;
      conforms(`/api/${kind}/owner/{address}`, owned);
      assert.deepEqual(owned.owner, A(5));
      assert.deepEqual(
        owned.items,
        list.items.filter((x: any) => x.owner === A(5)),
      );
      assert.equal(owned.count, owned.items.length);
      assert.deepEqual((await get(c, `/api/${kind}/owner/${STRANGER}`)).body, { owner: STRANGER, count: 0, items: [] });
    }

    const records = { image: [...c.node.state().records.imageNfts.entries()], audio: [...c.node.state().records.audioNfts.entries()] };
    const blobs = [...c.node.state().records.blobs.entries()];
    await c.node.runner.resetAll();
    await c.node.catchUp(undefined, { verifySignatures: true });
    assert.deepEqual([...c.node.state().records.imageNfts.entries()], records.image, 'replay rebuilds the image NFTs');
    assert.deepEqual([...c.node.state().records.audioNfts.entries()], records.audio, 'replay rebuilds the audio NFTs');
    assert.deepEqual([...c.node.state().records.blobs.entries()], blobs);
    for (const { name, facts, tokenId } of minted)
      assert.deepEqual((await fileOf(c, `/api/${kindOf(facts)}/${tokenId}/file`)).bytes, fixture(name));
  }));

test('unknown tokens 404, a bad id or address 400', () =>
  withChain(async (c) => {
    for (const kind of ['image', 'audio']) {
      assertError(await get(c, `/api/${kind}/${'cd'.repeat(32)}`), 404, 'NOT_FOUND');
      assertError(await get(c, `/api/${kind}/${'cd'.repeat(32)}/file`), 404, 'NOT_FOUND');
      assertError(await get(c, `/api/${kind}/xyz`), 400, 'INVALID_PARAMS');
      assertError(await get(c, `/api/${kind}/owner/nobody`), 400, 'INVALID_PARAMS');
      assertError(await get(c, `/api/${kind}/?limit=-1`), 400, 'INVALID_PARAMS');
    }
  }));

test('mints travel the live streams like every transaction: SSE tx and block events, the WebSocket txs channel', () =>
  withServedChain(async ({ chain: c, url, wsUrl }) => {
    await miners(c);
    const sse = await SseClient.open(`${url}/api/chain/events`);
    const ws = await WsClient.open(`${wsUrl}/api/ws`);
    try {
      await ws.request({ action: 'subscribe', channel: 'txs' });
      for (const name of ['image-lossy.webp', 'audio-vorbis.ogg']) {
        const facts = EXPECTED[name];
        const blobId = await uploadBlob(c, 2, fixture(name), contentTypeOf(facts.format));
        const m = mintFields(await mediaTask(c, kindOf(facts), blobId), blobId, facts, A(5));
        const tx = await send(c, 1, m.type, m.fields);
        await c.produce();
        assert.deepEqual((await sse.waitFor((e) => e.event === 'tx' && e.data.hash === tx.hash)).data, {
          type: 'tx',
          txType: m.type,
          hash: tx.hash,
        });
        await sse.waitFor((e) => e.event === 'block' && e.data.transactions.some((x: { hash: string }) => x.hash === tx.hash));
        const w = await ws.waitFor((x) => x.type === 'tx' && x.data.hash === tx.hash);
        assert.deepEqual([w.data.type, w.data.from, w.data.fee], [m.type, A(1), '1000']);
      }
    } finally {
      ws.close();
      await sse.close();
    }
  }));

/** Posts a mint and asserts 422 VALIDATION_FAILED matching `why`, with nothing changed. */
async function refused(
  c: TestChain,
  i: number,
  m: ReturnType<typeof mintFields>,
  over: Record<string, unknown>,
  why: RegExp,
): Promise<void> {
  const before = snapshot(c);
  assertError(await postTx(c, signedMint(c, i, m, over)), 422, 'VALIDATION_FAILED', why);
  assert.deepEqual(snapshot(c), before, 'a refused mint changes nothing');
}

test('claims that differ from the file, a second mint, a non-submitter, other kinds and incomplete or foreign blobs are refused', () =>
  withChain(async (c) => {
    await miners(c);
    const png = EXPECTED['image.png'];
    const pngBlob = await uploadBlob(c, 2, fixture('image.png'), 'image/png');
    const image = await mediaTask(c, 'image', pngBlob);
    const pngMint = mintFields(image, pngBlob, png, A(5));
    await refused(c, 1, pngMint, { width: 97 }, /the image is 96x64, not 97x64/);
    await refused(c, 1, pngMint, { height: 1 }, /the image is 96x64, not 96x1/);
    await refused(c, 1, pngMint, { format: 'image:jpeg' }, /format image:jpeg does not match the blob's bytes \(image:png\)/);
    await refused(c, 1, pngMint, { tokenId: sha256Hex('another') }, /tokenId must be SHA-256/);
    await refused(c, 1, pngMint, { seedHash: sha256Hex('another') }, /seedHash must be/);
    await refused(c, 1, pngMint, { blobId: sha256Hex('another') }, /blobId is not the best response's content/);
    await refused(c, 4, pngMint, {}, /only the task's submitter/);
    const wav = EXPECTED['audio.wav'] as AudioFacts;
    await refused(c, 1, mintFields(image, pngBlob, wav, A(5)), {}, /is a image task, not audio/);

    const wavBlob = await uploadBlob(c, 2, fixture('audio.wav'), 'audio/wav');
    const audio = await mediaTask(c, 'audio', wavBlob);
    const wavMint = mintFields(audio, wavBlob, wav, A(5));
    await refused(c, 1, wavMint, { sampleRate: 44100 }, /sample rate is 8000 Hz, not 44100/);
    await refused(c, 1, wavMint, { format: 'audio:mpeg' }, /format audio:mpeg does not match/);
    const far = { ...wav, durationMs: 801 };
    await refused(c, 1, mintFields(audio, wavBlob, far, A(5)), {}, /lasts 750 ms: durationMs 801 is not within 1 % or 50 ms/);
    // 50 ms off is within tolerance: the mint lands and keeps the duration it claimed.
    const near = mintFields(audio, wavBlob, { ...wav, durationMs: 800 }, A(5));
    await send(c, 1, near.type, near.fields);
    await send(c, 1, pngMint.type, pngMint.fields);
    await c.produce();
    assert.equal(c.node.state().records.audioNfts.get(near.fields.tokenId)?.durationMs, 800);
    assert.ok(c.node.state().records.imageNfts.get(pngMint.fields.tokenId));
    await refused(c, 1, pngMint, {}, /was already minted/);
    await refused(c, 1, wavMint, {}, /was already minted/);

    const partial = await uploadBlob(c, 2, fixture('image.jpg'), 'image/jpeg', [1]);
    const early = await mediaTask(c, 'image', partial);
    await refused(c, 1, mintFields(early, partial, EXPECTED['image.jpg'], A(5)), {}, /blob [0-9a-f]{64} is pending, not complete/);
    const missing = sha256Hex('no such blob');
    const ghost = await mediaTask(c, 'image', missing);
    await refused(c, 1, mintFields(ghost, missing, png, A(5)), {}, /blob [0-9a-f]{64} does not exist/);
    const noise = await uploadBlob(c, 2, bytesOf(3000, 'noise'), 'image/png');
    const junk = await mediaTask(c, 'image', noise);
    await refused(c, 1, mintFields(junk, noise, png, A(5)), {}, /is not an image or audio file this chain reads$/);
    const cut = await uploadBlob(c, 2, fixture('image.png').subarray(0, 20), 'image/png');
    const broken = await mediaTask(c, 'image', cut);
    await refused(c, 1, mintFields(broken, cut, png, A(5)), {}, /is not an image or audio file this chain reads: the PNG is truncated/);
    assert.equal(c.node.state().records.blobs.get(cut)?.mediaProblem, 'the PNG is truncated (needs 4 bytes at offset 20 of 20)');
    assert.equal(c.node.state().records.blobs.get(noise)?.media, undefined);
    assert.equal(c.node.state().records.blobs.get(partial)?.status, 'pending');
  }));

test('before forks 4 and 5 the mints are refused 403 FORK_NOT_ACTIVE', () =>
  withChain(
    async (c) => {
      await c.produce();
      const facts = [EXPECTED['image.png'], EXPECTED['audio.wav']];
      for (const f of facts) {
        const m = mintFields({ taskId: 'task0001', minerId: 'ab'.repeat(32), seedHash: 'ab'.repeat(32) }, 'cd'.repeat(32), f, A(5));
        assertError(await postTx(c, signedMint(c, 1, m)), 403, 'FORK_NOT_ACTIVE');
      }
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));
