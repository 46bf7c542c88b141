/** Chain-wide reads under /api/chain: stats, height, accounts, search, network. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { EncodedOnChange, jsonAnswer } from '../jsonAnswer.ts';
import type { Block } from '../../core/block.ts';
import { CHAIN_ENDPOINTS as E } from '../endpoints/chain.ts';
import { serve } from '../endpoints/endpoint.ts';

/** Chain routes. */
export function chainRoutes({ queries, network }: ApiDeps): Hono {
  const app = new Hono();

  serve(app, E.getApiChainStats, (c) => c.json(queries.chain.stats(network.peerCount())));

  // The head summary, encoded once per head.
  const head = new EncodedOnChange((b: Block) => ({
    height: b.index,
    latestBlock: { index: b.index, hash: b.hash, timestamp: b.timestamp },
  }));
  serve(app, E.getApiChainHeight, (c) => jsonAnswer(c, head.get(queries.chain.head())));

  serve(app, E.getApiChainAccountAddress, async (c, { params }) => {
    const [record, profile] = await Promise.all([queries.chain.accountRecord(params.address), queries.social.profile(params.address)]);
    // The profile rides along (absent without one), so a page about the address need not ask for it and get a 404.
    return c.json(profile ? { ...record, profile } : record);
  });

  // What wallets need to build transactions: the chain id, authorities and fork activation heights.
  serve(app, E.getApiChainParams, (c) => {
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

  // The genesis document as the node runs it (fork overrides applied): a mirror folds the state with it.
  serve(app, E.getApiChainGenesisConfig, (c) => c.json(queries.chain.genesis()));

  serve(app, E.getApiChainEvidence, (c) => c.json(queries.chain.evidence()));

  serve(app, E.getApiChainNetwork, (c) => c.json({ peerId: network.peerId(), addresses: network.addresses() }));

  serve(app, E.getApiChainPeers, (c) => {
    const peers = network.peers();
    return c.json({ peerId: network.peerId(), count: peers.length, peers });
  });

  serve(app, E.getApiChainSearchQ, async (c, { params: { q }, query }) => c.json(await queries.search.search(q, query.limit)));

  return app;
}
