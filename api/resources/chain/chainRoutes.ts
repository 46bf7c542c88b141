/**
 * The chain resource's router: every definition of ./chainEndpoints.ts served by its handler.
 * Health (./healthHandlers.ts), chain-wide reads under /api/chain (stats, height, accounts,
 * params, network, search) and the event streams (./eventHandlers.ts).
 */
import type { Hono } from 'hono';
import type { ApiDeps } from '../../context.ts';
import { EncodedOnChange, jsonAnswer } from '../../jsonAnswer.ts';
import type { Block } from '../../../core/block.ts';
import { CHAIN_ENDPOINTS as E } from './chainEndpoints.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { eventHandlers } from './eventHandlers.ts';
import { healthHandlers } from './healthHandlers.ts';

/** The chain resource; health answers 503 while the head is more than `maxLagBlocks` behind. */
export function chainRoutes(deps: ApiDeps, maxLagBlocks: number): Hono {
  const { queries, network } = deps;

  // The head summary, encoded once per head.
  const head = new EncodedOnChange((b: Block) => ({
    height: b.index,
    latestBlock: { index: b.index, hash: b.hash, timestamp: b.timestamp },
  }));

  return resource(E, {
    ...healthHandlers(deps, maxLagBlocks),
    getApiChainStats: (c) => c.json(queries.chain.stats(network.peerCount())),
    getApiChainHeight: (c) => jsonAnswer(c, head.get(queries.chain.head())),
    getApiChainAccountAddress: async (c, { params }) => {
      const [record, profile] = await Promise.all([queries.chain.accountRecord(params.address), queries.social.profile(params.address)]);
      // The profile rides along (absent without one), so a page about the address need not ask for it and get a 404.
      return c.json(profile ? { ...record, profile } : record);
    },
    // What wallets need to build transactions: the chain id, authorities and fork activation heights.
    getApiChainParams: (c) => {
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
    },
    // The genesis document as the node runs it (fork overrides applied): a mirror folds the state with it.
    getApiChainGenesisConfig: (c) => c.json(queries.chain.genesis()),
    getApiChainEvidence: (c) => c.json(queries.chain.evidence()),
    getApiChainNetwork: (c) => c.json({ peerId: network.peerId(), addresses: network.addresses() }),
    getApiChainPeers: (c) => {
      const peers = network.peers();
      return c.json({ peerId: network.peerId(), count: peers.length, peers });
    },
    getApiChainSearchQ: async (c, { params: { q }, query }) => c.json(await queries.search.search(q, query.limit)),
    ...eventHandlers(deps),
  });
}
