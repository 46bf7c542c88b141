/** Chain-wide reads: /api/chain/stats, /height, /account/:address, /search/:q, /network, /peers. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { genesisState } from '../../core/applyBlock.ts';
import { parseGenesis } from '../../core/genesis.ts';
import { sha256Hex } from '../../core/hash.ts';
import { signTx } from '../../core/txCodec.ts';
import type { NetworkView } from '../../api/context.ts';
import { DEV_KEYS, fixtureGenesis } from '../helpers/testChain.ts';
import { assertError, assertKeys, DEV_ALLOCATION, get, STRANGER, withChain } from './support.ts';

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

const stats = suite('GET /api/chain/stats and /api/chain/height');

stats('stats of a fresh chain: height 0, the genesis hash, nothing recent', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/chain/stats');
    assert.is(res.status, 200);
    assert.equal(res.body, {
      height: 0,
      latestBlockHash: c.node.head().hash,
      totalMiners: 0,
      recentTxCount: 0,
      recentRewards: '0',
      activeProposers: 0,
      p2pPeers: 0,
    });
  }),
);

stats('stats follow blocks: height, tip hash, recent transactions, proposers, miners', () =>
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
    assert.equal(res.body, {
      height: 3,
      latestBlockHash: c.node.head().hash,
      totalMiners: 1,
      recentTxCount: 3,
      recentRewards: '0',
      activeProposers: 1,
      p2pPeers: 0,
    });
  }),
);

stats('recentRewards is a string that sums the pre-fork-2 block rewards', () =>
  withChain(
    async (c) => {
      await c.produce(3);
      const res = await get(c, '/api/chain/stats');
      assert.is(res.body.recentRewards, '150000000');
      assert.is(res.body.height, 3);
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ),
);

stats('height answers {height, latestBlock: {index, hash, timestamp}}', () =>
  withChain(async (c) => {
    const zero = await get(c, '/api/chain/height');
    assert.is(zero.status, 200);
    assert.equal(zero.body, { height: 0, latestBlock: { index: 0, hash: c.node.head().hash, timestamp: c.genesis.timestamp } });
    await c.produce(4);
    const head = c.node.head();
    assert.equal((await get(c, '/api/chain/height')).body, {
      height: 4,
      latestBlock: { index: 4, hash: head.hash, timestamp: head.timestamp },
    });
  }),
);

stats.run();

const account = suite('GET /api/chain/account/:address');

const ACCOUNT_KEYS = ['address', 'balance', 'nonce', 'nextNonce', 'isMiner', 'recentTxs'];

account('a funded account with no history: balance string, nonce 0, not a miner, no transactions', () =>
  withChain(async (c) => {
    const res = await get(c, `/api/chain/account/${A(1)}`);
    assert.is(res.status, 200);
    assert.equal(res.body, { address: A(1), balance: DEV_ALLOCATION.toString(), nonce: 0, nextNonce: 0, isMiner: false, recentTxs: [] });
  }),
);

account('an unknown address is an empty account, not a 404', () =>
  withChain(async (c) => {
    const res = await get(c, `/api/chain/account/${STRANGER}`);
    assert.is(res.status, 200);
    assert.equal(res.body, { address: STRANGER, balance: '0', nonce: 0, nextNonce: 0, isMiner: false, recentTxs: [] });
  }),
);

account('a mixed-case address is accepted and answered lowercase', () =>
  withChain(async (c) => {
    const mixed = `OX${A(1).slice(2).toUpperCase()}`;
    const res = await get(c, `/api/chain/account/${mixed}`);
    assert.is(res.status, 200);
    assert.is(res.body.address, A(1));
    assert.is(res.body.balance, DEV_ALLOCATION.toString());
    const camel = `ox${[...A(1).slice(2)].map((ch, i) => (i % 2 ? ch.toUpperCase() : ch)).join('')}`;
    assert.is((await get(c, `/api/chain/account/${camel}`)).body.address, A(1));
  }),
);

account('a malformed address is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    for (const bad of BAD_ADDRESSES) assertError(await get(c, `/api/chain/account/${bad}`), 400, 'INVALID_PARAMS');
  }),
);

account('recentTxs are the 50 newest, newest first, across blocks, for sender and recipient', () =>
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
    assert.is(c.node.head().index, 3);
    const res = await get(c, `/api/chain/account/${A(1)}`);
    assert.is(res.status, 200);
    assertKeys(res.body, ACCOUNT_KEYS);
    const spent = (55n * 56n) / 2n + 55n * 1000n;
    assert.is(res.body.balance, (DEV_ALLOCATION - spent).toString());
    assert.is(res.body.nonce, 55);
    assert.is(res.body.nextNonce, 55);
    assert.is(res.body.recentTxs.length, 50);
    assert.equal(
      res.body.recentTxs.map((t: any) => t.hash),
      hashes.slice(5).reverse(),
    );
    assert.equal(
      res.body.recentTxs.map((t: any) => t.nonce),
      Array.from({ length: 50 }, (_, i) => 54 - i),
    );
    const newest = res.body.recentTxs[0];
    assert.is(newest.blockIndex, 3);
    assert.is(newest.blockHash, c.node.head().hash);
    assert.is(newest.amount, '55');
    assert.type(newest.timestamp, 'number');
    assert.is(res.body.recentTxs[49].blockIndex, 1);
    const recipient = await get(c, `/api/chain/account/${A(2)}`);
    assert.is(recipient.body.recentTxs.length, 50);
    assert.is(recipient.body.recentTxs[0].hash, hashes[54]);
    assert.is(recipient.body.balance, (DEV_ALLOCATION + (55n * 56n) / 2n).toString());
    // Pending transactions are not part of the confirmed history.
    await c.node.submitTx(c.transfer(1, A(2), 1n));
    assert.is((await get(c, `/api/chain/account/${A(1)}`)).body.recentTxs[0].hash, hashes[54]);
  }),
);

account('a mined MINER_REGISTER makes the account a miner whose id is SHA-256 of the registering hash', () =>
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
    assert.is(pending.body.isMiner, false);
    assert.not.ok('miner' in pending.body);
    await c.produce();
    const res = await get(c, `/api/chain/account/${A(4)}`);
    assert.is(res.status, 200);
    assertKeys(res.body, [...ACCOUNT_KEYS, 'miner']);
    assert.is(res.body.isMiner, true);
    assert.is(res.body.nonce, 1);
    assert.is(res.body.balance, (DEV_ALLOCATION - 1000n).toString());
    assert.is(res.body.miner.id, sha256Hex(reg.hash));
    assert.is(res.body.miner.name, 'gpu-box-1');
    assert.is(res.body.miner.address, A(4));
    assert.equal(res.body.miner.capabilities, ['chat', 'image:sdxl']);
    assert.is(res.body.miner.reputationScore, 0);
    assert.is(res.body.miner.tasksCompleted, 0);
    assert.is(res.body.recentTxs.length, 1);
    assert.is(res.body.recentTxs[0].hash, reg.hash);
    assert.is((await get(c, `/api/chain/account/${A(5)}`)).body.isMiner, false);
  }),
);

account('GET /api/chain/account/:address gives nextNonce counting the pending run', () =>
  withChain(async (c) => {
    await c.node.submitTx(c.transfer(4, A(2), 1n));
    await c.node.submitTx(c.transfer(4, A(2), 2n));
    const res = await get(c, `/api/chain/account/${A(4)}`);
    assert.equal([res.body.nonce, res.body.nextNonce], [0, 2]);
  }),
);

account('nextNonce stays after the pending run when a block takes the run while the account is read', () =>
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
      assert.is(c.node.mempool.size, 0);
      assert.equal([res.body.nonce, res.body.nextNonce], [0, 2]);
      // Read again once the block is in: the account's own nonce.
      const after = await get(c, `/api/chain/account/${A(4)}`);
      assert.equal([after.body.nonce, after.body.nextNonce], [2, 2]);
    },
    { accountCache: 16 },
  ),
);

account.run();

const search = suite('GET /api/chain/search/:q');

search('finds a block by index and by hash, a transaction by hash, and an address in full or by prefix', () =>
  withChain(async (c) => {
    const tx = c.transfer(1, A(2), 5n);
    await c.node.submitTx(tx);
    await c.produce(2);
    const b1 = (await c.queries.block(1))!;
    const summary1 = { index: 1, hash: b1.hash, txCount: 1, timestamp: b1.timestamp, proposer: A(0) };

    const byIndex = await get(c, '/api/chain/search/1');
    assert.is(byIndex.status, 200);
    assert.equal(byIndex.body, [{ type: 'block', data: summary1 }]);
    assert.equal((await get(c, '/api/chain/search/0')).body[0].data.index, 0);

    assert.equal((await get(c, `/api/chain/search/${b1.hash}`)).body, [{ type: 'block', data: summary1 }]);
    assert.equal((await get(c, `/api/chain/search/${b1.hash.toUpperCase()}`)).body, [{ type: 'block', data: summary1 }]);

    const byTx = await get(c, `/api/chain/search/${tx.hash}`);
    assert.is(byTx.body.length, 1);
    assert.is(byTx.body[0].type, 'tx');
    assert.equal(byTx.body[0].data, { ...tx, blockIndex: 1, blockHeight: 1, blockHash: b1.hash, position: 0 });

    const byAddress = await get(c, `/api/chain/search/${A(2)}`);
    assert.equal(byAddress.body, [{ type: 'address', data: { address: A(2), balance: (DEV_ALLOCATION + 5n).toString(), nonce: 0 } }]);
    const upper = await get(c, `/api/chain/search/${A(2).toUpperCase()}`);
    assert.equal(upper.body, byAddress.body);

    const prefix = A(7).slice(0, 8);
    const partial = await get(c, `/api/chain/search/${prefix}`);
    assert.is(partial.status, 200);
    const found = partial.body.filter((r: any) => r.type === 'address').map((r: any) => r.data.address);
    assert.ok(found.includes(A(7)), `${prefix} should find ${A(7)}: ${JSON.stringify(partial.body)}`);
    for (const a of found) assert.ok(a.startsWith(prefix));
    const noOx = await get(c, `/api/chain/search/${A(7).slice(2, 10)}`);
    assert.ok(noOx.body.some((r: any) => r.data.address === A(7)));
  }),
);

search('a query matching nothing answers [] and junk is not an error', () =>
  withChain(async (c) => {
    for (const q of ['zzz', 'hello world', '999999', 'ab'.repeat(32), 'ox', 'oxzz', '!!', `ox${'f'.repeat(39)}`]) {
      const res = await get(c, `/api/chain/search/${encodeURIComponent(q)}`);
      assert.is(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body, [], q);
    }
  }),
);

search('an unknown full address is still answered as an (empty) address', () =>
  withChain(async (c) => {
    assert.equal((await get(c, `/api/chain/search/${STRANGER}`)).body, [
      { type: 'address', data: { address: STRANGER, balance: '0', nonce: 0 } },
    ]);
  }),
);

search('a 10 kB query is 400 INVALID_PARAMS', () =>
  withChain(async (c) => {
    assertError(await get(c, `/api/chain/search/${'a'.repeat(10_000)}`), 400, 'INVALID_PARAMS');
    assertError(await get(c, `/api/chain/search/${'1'.repeat(10_000)}`), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/chain/search/%20%20'), 400, 'INVALID_PARAMS');
  }),
);

search.run();

const net = suite('GET /api/chain/network and /api/chain/peers');

net('a node without p2p reports no peer id, no addresses and no peers', () =>
  withChain(async (c) => {
    const network = await get(c, '/api/chain/network');
    assert.is(network.status, 200);
    assert.equal(network.body, { peerId: null, addresses: [] });
    const peers = await get(c, '/api/chain/peers');
    assert.is(peers.status, 200);
    assert.equal(peers.body, { peerId: null, count: 0, peers: [] });
  }),
);

net('the network view is passed through: peer id, dialable addresses, peers and their count', () => {
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
      assert.equal((await get(c, '/api/chain/network')).body, { peerId, addresses: [`/ip4/127.0.0.1/tcp/7000/p2p/${peerId}`] });
      assert.equal((await get(c, '/api/chain/peers')).body, { peerId, count: 1, peers: [other] });
      assert.is((await get(c, '/api/chain/stats')).body.p2pPeers, 1);
    },
    { network: view },
  );
});

net.run();

const params = suite('GET /api/chain/params');

params('answers the chain id, authorities, block time, reward and the fork heights in force', () =>
  withChain(async (c) => {
    const res = await get(c, '/api/chain/params');
    assert.is(res.status, 200);
    assert.equal(res.body, {
      chainId: 'ombra-dev',
      blockTimeMs: c.genesis.blockTimeMs,
      authorities: [A(0)],
      blockReward: '0',
      forks: { 2: 0, 3: 0, 4: 0, 5: 0, 6: 0 },
      nextHeight: 1,
    });
  }),
);

params('blockReward is what the next block mints, the same figure as the supply rewardPerBlock, before and after fork 2', () =>
  withChain(
    async (c) => {
      const figures = async () => [
        (await get(c, '/api/chain/params')).body.blockReward,
        (await get(c, '/api/tokenomics/supply')).body.rewardPerBlock,
        (await get(c, '/api/stats/supply')).body.rewardPerBlock,
      ];
      assert.equal(await figures(), ['50000000', '50000000', '50000000'], 'before fork 2 (height 10)');
      await c.produce(8);
      assert.equal(await figures(), ['50000000', '50000000', '50000000'], 'block 9 still mints');
      await c.produce();
      assert.equal(await figures(), ['0', '0', '0'], 'block 10 is the fork: no fixed issuance');
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ),
);

params.run();

const genesisConfig = suite('GET /api/chain/genesis-config');

genesisConfig('answers the genesis document as the node runs it, from which block 0 follows', () =>
  withChain(
    async (c) => {
      const res = await get(c, '/api/chain/genesis-config');
      assert.is(res.status, 200);
      assert.equal(res.body, { ...c.genesis, forks: { ...c.genesis.forks } });
      assert.is(Object.keys(res.body.allocations).length, Object.keys(c.genesis.allocations).length);
      // A mirror folds the state from it: its block 0 is the node's.
      assert.is(genesisState(parseGenesis(res.body)).block.hash, (await get(c, '/api/chain/genesis')).body.hash);
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ),
);

genesisConfig.run();
