/** Chain-wide reads: /api/chain/stats, /height, /account/:address, /search/:q, /network, /peers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import { parseGenesis } from '../../../core/genesis.ts';
import { sha256Hex } from '../../../core/hash.ts';
import { signTx } from '../../../core/txCodec.ts';
import type { NetworkView } from '../../../api/context.ts';
import { DEV_KEYS, fixtureGenesis } from '../../helpers/testChain.ts';
import { assertError, assertKeys, DEV_ALLOCATION, get, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const BAD_ADDRESSES = [
  'ox123',
  `xx${'0'.repeat(40)}`,
  `ox${'g'.repeat(40)}`,
  `ox${'0'.repeat(41)}`,
  '0'.repeat(42),
  `ox${'0'.repeat(39)}`,
  'x'.repeat(10_000),
  `ox${'1'.repeat(10_000)}`,
];

test('stats of a fresh chain: height 0, the genesis hash, nothing recent', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/chain/stats');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      height: 0,
      latestBlockHash: c.node.head().hash,
      totalMiners: 0,
      recentTxCount: 0,
      recentRewards: '0',
      activeProposers: 0,
      p2pPeers: 0,
    });
  }));

test('stats follow blocks: height, tip hash, recent transactions, proposers, miners', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(1, A(2), 5n));
    await c.node.submitTx(c.transfer(2, A(3), 5n));
    await c.produce();
    await c.node.submitTx(
      signTx(
        { type: 'MINER_REGISTER', from: A(5), name: 'm', capabilities: ['chat'], fee: '0', nonce: 0, timestamp: c.now() },
        DEV_KEYS[5],
      ),
    );
    await c.produce(2);
    const res = await get(c, '/api/chain/stats');
    assert.deepEqual(res.body, {
      height: 3,
      latestBlockHash: c.node.head().hash,
      totalMiners: 1,
      recentTxCount: 3,
      recentRewards: '0',
      activeProposers: 1,
      p2pPeers: 0,
    });
  }));

test('recentRewards is a string that sums the pre-fork-2 block rewards', () =>
  withChain(
    async (c) => {
      await c.produce(3);
      const res = await get(c, '/api/chain/stats');
      assert.equal(res.body.recentRewards, '150000000');
      assert.equal(res.body.height, 3);
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));

test('height answers {height, latestBlock: {index, hash, timestamp}}', () =>
  withChain(async (c) => {
    const zero = await get(c, '/api/chain/height');
    assert.equal(zero.status, 200);
    assert.deepEqual(zero.body, { height: 0, latestBlock: { index: 0, hash: c.node.head().hash, timestamp: c.genesis.timestamp } });
    await c.produce(4);
    const head = c.node.head();
    assert.deepEqual((await get(c, '/api/chain/height')).body, {
      height: 4,
      latestBlock: { index: 4, hash: head.hash, timestamp: head.timestamp },
    });
  }));

const ACCOUNT_KEYS = ['address', 'balance', 'nonce', 'nextNonce', 'isMiner', 'recentTxs'];

test('a funded account with no history: balance string, nonce 0, not a miner, no transactions', () =>
  withChain(async (c) => {
    const res = await get(c, `/api/chain/account/${A(1)}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      address: A(1),
      balance: DEV_ALLOCATION.toString(),
      nonce: 0,
      nextNonce: 0,
      isMiner: false,
      recentTxs: [],
    });
  }));

test('an unknown address is an empty account, not a 404', () =>
  withChain(async (c) => {
    const res = await get(c, `/api/chain/account/${STRANGER}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { address: STRANGER, balance: '0', nonce: 0, nextNonce: 0, isMiner: false, recentTxs: [] });
  }));

test('a mixed-case address is accepted and answered lowercase', () =>
  withChain(async (c) => {
    const mixed = `OX${A(1).slice(2).toUpperCase()}`;
    const res = await get(c, `/api/chain/account/${mixed}`);
    assert.equal(res.status, 200);
    assert.equal(res.body.address, A(1));
    assert.equal(res.body.balance, DEV_ALLOCATION.toString());
    const camel = `ox${[...A(1).slice(2)].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch)).join('')}`;
    assert.equal((await get(c, `/api/chain/account/${camel}`)).body.address, A(1));
  }));

test('a malformed address is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    for (const bad of BAD_ADDRESSES) assertError(await get(c, `/api/chain/account/${bad}`), 400, 'INVALID_PARAMS');
  }));

test('recentTxs are the 50 newest, newest first, across blocks, for sender and recipient', () =>
  withChain(async (c) => {
    const hashes: string[] = [];
    for (const batch of [20, 20, 15]) {
      for (let i = 0; i < batch; i++) {
        const tx = c.transfer(1, A(2), BigInt(hashes.length + 1));
        await c.node.submitTx(tx);
        hashes.push(tx.hash as string);
      }
      await c.produce();
    }
    assert.equal(c.node.head().index, 3);
    const res = await get(c, `/api/chain/account/${A(1)}`);
    assert.equal(res.status, 200);
    assertKeys(res.body, ACCOUNT_KEYS);
    const spent = (55n * 56n) / 2n + 55n * 1000n;
    assert.equal(res.body.balance, (DEV_ALLOCATION - spent).toString());
    assert.equal(res.body.nonce, 55);
    assert.equal(res.body.nextNonce, 55);
    assert.equal(res.body.recentTxs.length, 50);
    assert.deepEqual(
      res.body.recentTxs.map((t: any) => t.hash),
      hashes.slice(5).reverse(),
    );
    assert.deepEqual(
      res.body.recentTxs.map((t: any) => t.nonce),
      Array.from({ length: 50 }, (_, i) => 54 - i),
    );
    const newest = res.body.recentTxs[0];
    assert.equal(newest.blockIndex, 3);
    assert.equal(newest.blockHash, c.node.head().hash);
    assert.equal(newest.amount, '55');
    assert.equal(typeof newest.timestamp, 'number');
    assert.equal(res.body.recentTxs[49].blockIndex, 1);
    const recipient = await get(c, `/api/chain/account/${A(2)}`);
    assert.equal(recipient.body.recentTxs.length, 50);
    assert.equal(recipient.body.recentTxs[0].hash, hashes[54]);
    assert.equal(recipient.body.balance, (DEV_ALLOCATION + (55n * 56n) / 2n).toString());
    // Pending transactions are not part of the confirmed history.
    await c.node.submitTx(c.transfer(1, A(2), 1n));
    assert.equal((await get(c, `/api/chain/account/${A(1)}`)).body.recentTxs[0].hash, hashes[54]);
  }));

test('a mined MINER_REGISTER makes the account a miner whose id is SHA-256 of the registering hash', () =>
  withChain(async (c) => {
    const reg = signTx(
      {
        type: 'MINER_REGISTER',
        from: A(4),
        name: 'gpu-box-1',
        capabilities: ['chat', 'image:sdxl'],
        fee: '1000',
        nonce: 0,
        timestamp: c.now(),
      },
      DEV_KEYS[4],
    );
    await c.node.submitTx(reg);
    const pending = await get(c, `/api/chain/account/${A(4)}`);
    assert.equal(pending.body.isMiner, false);
    assert.ok(!('miner' in pending.body));
    await c.produce();
    const res = await get(c, `/api/chain/account/${A(4)}`);
    assert.equal(res.status, 200);
    assertKeys(res.body, [...ACCOUNT_KEYS, 'miner']);
    assert.equal(res.body.isMiner, true);
    assert.equal(res.body.nonce, 1);
    assert.equal(res.body.balance, (DEV_ALLOCATION - 1000n).toString());
    assert.equal(res.body.miner.id, sha256Hex(reg.hash));
    assert.equal(res.body.miner.name, 'gpu-box-1');
    assert.equal(res.body.miner.address, A(4));
    assert.deepEqual(res.body.miner.capabilities, ['chat', 'image:sdxl']);
    assert.equal(res.body.miner.reputationScore, 0);
    assert.equal(res.body.miner.tasksCompleted, 0);
    assert.equal(res.body.recentTxs.length, 1);
    assert.equal(res.body.recentTxs[0].hash, reg.hash);
    assert.equal((await get(c, `/api/chain/account/${A(5)}`)).body.isMiner, false);
  }));

test('GET /api/chain/account/:address gives nextNonce counting the pending run', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(4, A(2), 1n));
    await c.node.submitTx(c.transfer(4, A(2), 2n));
    const res = await get(c, `/api/chain/account/${A(4)}`);
    assert.deepEqual([res.body.nonce, res.body.nextNonce], [0, 2]);
  }));

test('nextNonce stays after the pending run when a block takes the run while the account is read', () =>
  withChain(
    async (c) => {
      // A first block writes the genesis accounts' rows.
      await c.produce();
      await c.node.submitTx(c.transfer(4, A(2), 1n));
      await c.node.submitTx(c.transfer(4, A(2), 2n));
      // The account is not cached (the cache may drop any entry: its row holds it), so its read
      // waits for its row. The block taking both pending transfers lands during that wait, and
      // the row read is the one from before it.
      c.node.state().accounts.delete(A(4));
      const runner = c.node.runner;
      const readable = runner.readable.bind(runner);
      let landed = false;
      runner.readable = (async (p: Parameters<typeof readable>[0]) => {
        const rows = await readable(p);
        if (landed || p.name !== 'accounts') return rows;
        landed = true;
        return {
          getMany: async (keys: string[]) => {
            const before = await rows.getMany(keys);
            await c.produce();
            return before;
          },
        };
      }) as typeof runner.readable;
      const res = await get(c, `/api/chain/account/${A(4)}`);
      assert.ok(landed, 'the block landed during the read');
      assert.equal(c.node.mempool.size, 0);
      assert.deepEqual([res.body.nonce, res.body.nextNonce], [0, 2]);
      // Read again once the block is in: the account's own nonce.
      const after = await get(c, `/api/chain/account/${A(4)}`);
      assert.deepEqual([after.body.nonce, after.body.nextNonce], [2, 2]);
    },
    { accountCache: 16 },
  ));

test('finds a block by index and by hash, a transaction by hash, and an address in full or by prefix', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    await c.node.submitTx(tx);
    await c.produce(2);
    const b1 = (await c.queries.block(1))!;
    const summary1 = { index: 1, hash: b1.hash, txCount: 1, timestamp: b1.timestamp, proposer: A(0) };

    const byIndex = await get(c, '/api/chain/search/1');
    assert.equal(byIndex.status, 200);
    assert.deepEqual(byIndex.body, [{ type: 'block', data: summary1 }]);
    assert.deepEqual((await get(c, '/api/chain/search/0')).body[0].data.index, 0);

    assert.deepEqual((await get(c, `/api/chain/search/${b1.hash}`)).body, [{ type: 'block', data: summary1 }]);
    assert.deepEqual((await get(c, `/api/chain/search/${b1.hash.toUpperCase()}`)).body, [{ type: 'block', data: summary1 }]);

    const byTx = await get(c, `/api/chain/search/${tx.hash}`);
    assert.equal(byTx.body.length, 1);
    assert.equal(byTx.body[0].type, 'tx');
    assert.deepEqual(byTx.body[0].data, { ...tx, blockIndex: 1, blockHeight: 1, blockHash: b1.hash, position: 0 });

    const byAddress = await get(c, `/api/chain/search/${A(2)}`);
    assert.deepEqual(byAddress.body, [{ type: 'address', data: { address: A(2), balance: (DEV_ALLOCATION + 5n).toString(), nonce: 0 } }]);
    const upper = await get(c, `/api/chain/search/${A(2).toUpperCase()}`);
    assert.deepEqual(upper.body, byAddress.body);

    const prefix = A(7).slice(0, 8);
    const partial = await get(c, `/api/chain/search/${prefix}`);
    assert.equal(partial.status, 200);
    const found = partial.body.filter((r: any) => r.type === 'address').map((r: any) => r.data.address);
    assert.ok(found.includes(A(7)), `${prefix} should find ${A(7)}: ${JSON.stringify(partial.body)}`);
    for (const a of found) assert.ok(a.startsWith(prefix));
    const noOx = await get(c, `/api/chain/search/${A(7).slice(2, 10)}`);
    assert.ok(noOx.body.some((r: any) => r.data.address === A(7)));
  }));

test('a query matching nothing answers [] and junk is not an error', () =>
  withChain(async (c) => {
    for (const q of ['zzz', 'hello world', '999999', 'ab'.repeat(32), 'ox', 'oxzz', '!!', `ox${'f'.repeat(39)}`]) {
      const res = await get(c, `/api/chain/search/${encodeURIComponent(q)}`);
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body, [], q);
    }
  }));

test('an unknown full address is still answered as an (empty) address', () =>
  withChain(async (c) => {
    assert.deepEqual((await get(c, `/api/chain/search/${STRANGER}`)).body, [
      { type: 'address', data: { address: STRANGER, balance: '0', nonce: 0 } },
    ]);
  }));

test('a 10 kB query is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    assertError(await get(c, `/api/chain/search/${'a'.repeat(10_000)}`), 400, 'INVALID_PARAMS');
    assertError(await get(c, `/api/chain/search/${'1'.repeat(10_000)}`), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/chain/search/%20%20'), 400, 'INVALID_PARAMS');
  }));

test('a node without p2p reports no peer id, no addresses and no peers', () =>
  withChain(async (c) => {
    const network = await get(c, '/api/chain/network');
    assert.equal(network.status, 200);
    assert.deepEqual(network.body, { peerId: null, addresses: [] });
    const peers = await get(c, '/api/chain/peers');
    assert.equal(peers.status, 200);
    assert.deepEqual(peers.body, { peerId: null, count: 0, peers: [] });
  }));

test('the network view is passed through: peer id, dialable addresses, peers and their count', () => {
  const peerId = '12D3KooWExamplePeerIdAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  const other = { peerId: '12D3KooWOtherPeerBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', addresses: ['/ip4/10.0.0.2/tcp/7001'] };
  const view: NetworkView = {
    peerCount: () => 1,
    peers: () => [other],
    peerId: () => peerId,
    addresses: () => [`/ip4/127.0.0.1/tcp/7000/p2p/${peerId}`],
    syncing: () => false,
  };
  return withChain(
    async (c) => {
      assert.deepEqual((await get(c, '/api/chain/network')).body, { peerId, addresses: [`/ip4/127.0.0.1/tcp/7000/p2p/${peerId}`] });
      assert.deepEqual((await get(c, '/api/chain/peers')).body, { peerId, count: 1, peers: [other] });
      assert.equal((await get(c, '/api/chain/stats')).body.p2pPeers, 1);
    },
    { network: view },
  );
});

test('answers the chain id, authorities, block time, reward and the fork heights in force', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/chain/params');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      chainId: 'ombra-dev',
      blockTimeMs: c.genesis.blockTimeMs,
      authorities: [A(0)],
      blockReward: '0',
      forks: { 2: 0, 3: 0, 4: 0, 5: 0, 6: 0 },
      nextHeight: 1,
    });
  }));

test('blockReward is what the next block mints, the same figure as the supply rewardPerBlock, before and after fork 2', () =>
  withChain(
    async (c) => {
      const figures = async () => [
        (await get(c, '/api/chain/params')).body.blockReward,
        (await get(c, '/api/tokenomics/supply')).body.rewardPerBlock,
        (await get(c, '/api/stats/supply')).body.rewardPerBlock,
      ];
      assert.deepEqual(await figures(), ['50000000', '50000000', '50000000'], 'before fork 2 (height 10)');
      await c.produce(8);
      assert.deepEqual(await figures(), ['50000000', '50000000', '50000000'], 'block 9 still mints');
      await c.produce();
      assert.deepEqual(await figures(), ['0', '0', '0'], 'block 10 is the fork: no fixed issuance');
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));

test('answers the genesis document as the node runs it, from which block 0 follows', () =>
  withChain(
    async (c) => {
      const res = await get(c, '/api/chain/genesis-config');
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { ...c.genesis, forks: { ...c.genesis.forks } });
      assert.equal(Object.keys(res.body.allocations).length, Object.keys(c.genesis.allocations).length);
      // A mirror folds the state from it: its block 0 is the node's.
      assert.equal(genesisState(parseGenesis(res.body)).block.hash, (await get(c, '/api/chain/genesis')).body.hash);
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));
