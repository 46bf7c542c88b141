/** Chain-wide reads under /api/chain: stats, height, accounts, search, network. */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import type { ApiDeps } from '../context.ts';
import { parseAddress } from '../params.ts';
import { EncodedOnChange, jsonAnswer } from '../jsonAnswer.ts';
import type { Block } from '../../core/block.ts';
import { summary } from './blocks.ts';

/** Longest accepted search query. */
const MAX_QUERY = 128;

/** Chain routes. */
export function chainRoutes({ queries, network }: ApiDeps): Hono {
  const app = new Hono();

  app.get('/stats', (c) => c.json(queries.chain.stats(network.peerCount())));

  // The head summary, encoded once per head.
  const head = new EncodedOnChange((b: Block) => ({
    height: b.index,
    latestBlock: { index: b.index, hash: b.hash, timestamp: b.timestamp },
  }));
  app.get('/height', (c) => jsonAnswer(c, head.get(queries.chain.head())));

  app.get('/account/:address', async (c) => c.json(await queries.chain.accountRecord(parseAddress(c.req.param('address')))));

  // What wallets need to build transactions: the chain id, authorities and fork activation heights.
  app.get('/params', (c) => {
    const g = queries.chain.genesis();
    return c.json({
      chainId: g.chainId,
      blockTimeMs: g.blockTimeMs,
      authorities: g.authorities,
      // What the next block mints, as the supply's rewardPerBlock says (0 from fork 2 on).
      blockReward: queries.chain.rewardPerBlock().toString(),
      forks: g.forks,
      nextHeight: queries.chain.nextHeight(),
    });
  });

  app.get('/evidence', (c) => c.json(queries.chain.evidence()));

  app.get('/network', (c) => c.json({ peerId: network.peerId(), addresses: network.addresses() }));

  app.get('/peers', (c) => {
    const peers = network.peers();
    return c.json({ peerId: network.peerId(), count: peers.length, peers });
  });

  app.get('/search/:q', async (c) => {
    const q = c.req.param('q').trim().toLowerCase();
    if (q.length === 0 || q.length > MAX_QUERY) throw new ChainError('INVALID_PARAMS', `q must be 1..${MAX_QUERY} characters`);
    const out: { type: 'block' | 'tx' | 'address'; data: unknown }[] = [];
    if (/^[0-9]{1,15}$/.test(q)) {
      const b = await queries.chain.block(Number(q));
      if (b) out.push({ type: 'block', data: summary(b) });
    }
    if (/^[0-9a-f]{64}$/.test(q)) {
      const b = await queries.chain.blockByHash(q);
      if (b) out.push({ type: 'block', data: summary(b) });
      const t = await queries.chain.tx(q);
      if (t) out.push({ type: 'tx', data: t });
    }
    const addr = /^ox[0-9a-f]{40}$/.test(q) ? q : null;
    if (addr) {
      const a = queries.chain.account(addr);
      out.push({ type: 'address', data: { address: addr, balance: a.balance.toString(), nonce: a.nonce } });
    } else if (/^(ox)?[0-9a-f]{3,39}$/.test(q)) {
      const prefix = q.startsWith('ox') ? q : `ox${q}`;
      for (const a of await queries.chain.addressesWithPrefix(prefix, 20)) {
        const acc = queries.chain.account(a);
        out.push({ type: 'address', data: { address: a, balance: acc.balance.toString(), nonce: acc.nonce } });
      }
    }
    return c.json(out);
  });

  return app;
}

/** Parses an address path parameter (re-exported for the older address routes). */
