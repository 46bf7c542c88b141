/** The definitions of /api/health, the chain-wide reads under /api/chain and the event streams. */
import { type Checked, endpoints } from '../../endpoints/endpoint.ts';
import { EXAMPLE_ADDRESS } from '../../endpoints/examples.ts';
import { addressParam, limit } from '../../endpoints/params.ts';
import { MAX_SEARCH_QUERY, parseSearchQuery, type SearchQuery } from '../../../queries/searchQuery.ts';
import { address, arr, big, bool, hash, ms, nullable, obj, oneOf, record, str, uint } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';
import { SEARCH_HIT as searchHit } from '../../../queries/schemas/searchHits.ts';

/** A search query: trimmed, 1..MAX_SEARCH_QUERY characters, read into every id form it can take. */
const searchQuery: Checked<SearchQuery> = {
  schema: { type: 'string', minLength: 1, maxLength: MAX_SEARCH_QUERY },
  description:
    'a height; a 64-hex hash (block, transaction, agent run, conversation, NFT, miner, drive file); a task id; an address or its prefix (3+ hex); a post, site, release or DM id; a web alias; or the start of a profile or miner name',
  parse: parseSearchQuery,
  example: EXAMPLE_ADDRESS.slice(0, 10),
};

/** A search hit of `type` whose `data` is `data`. */

/** Health, chain-wide reads and the live streams. */
export const CHAIN_ENDPOINTS = endpoints({
  getApiHealth: {
    method: 'GET',
    path: '/api/health',
    tag: 'chain',
    summary: 'Liveness and readiness: status, height, peers, syncing',
    description:
      'Answers 503 `{status: "degraded", reason}` instead while block production or import keeps failing (3 failures in a row), and from the first failed write of a full data dir until a restart (docs/operations.md, "A full disk"), ' +
      'and 503 `{status: "behind", height, networkHeight}` while the head is more than `--max-lag-blocks` (default 8) below the best ' +
      'head its peers showed with evidence (a load balancer drains the node until it catches up). ' +
      'A node started from a checkpoint adds `checkpoint: "verified"` (or `"verifying"` under `--serve-unverified`); it answers 503 ' +
      '`{status: "verifying", checkpoint: "verifying", height}` while the checkpoint is not yet verified (its reads answer 503 `CHECKPOINT_UNVERIFIED`), ' +
      'and 503 `{status: "failed" | "mismatch", checkpoint, reason, height}` when its verification could not be done or found it contradicts history (docs/checkpoints.md).',
    ok: {
      schema: obj({ status: oneOf('ok'), height: uint, peers: uint, syncing: bool, checkpoint: oneOf('verifying', 'verified') }, [
        'checkpoint',
      ]),
    },
  },
  getApiChainStats: {
    method: 'GET',
    path: '/api/chain/stats',
    tag: 'chain',
    summary: 'Chain statistics over recent blocks',
    ok: {
      schema: obj({
        height: uint,
        latestBlockHash: hash,
        totalMiners: uint,
        recentTxCount: uint,
        recentRewards: big,
        activeProposers: uint,
        p2pPeers: uint,
      }),
    },
  },
  getApiChainHeight: {
    method: 'GET',
    path: '/api/chain/height',
    tag: 'chain',
    summary: 'The head',
    ok: { schema: obj({ height: uint, latestBlock: obj({ index: uint, hash, timestamp: ms }) }) },
  },
  getApiChainAccountAddress: {
    method: 'GET',
    path: '/api/chain/account/:address',
    tag: 'chain',
    summary: 'Balance, nonce, the nonce a new transaction should carry, miner record, social profile, the 50 most recent transactions',
    params: { address: addressParam() },
    ok: {
      schema: obj(
        {
          address,
          balance: big,
          nonce: uint,
          nextNonce: uint,
          isMiner: bool,
          miner: ref('MinerDetail'),
          profile: obj({ address, displayName: str, bio: str, avatarBlobId: hash }, ['avatarBlobId']),
          recentTxs: arr(ref('ListedTx')),
        },
        ['miner', 'profile'],
      ),
    },
  },
  getApiChainParams: {
    method: 'GET',
    path: '/api/chain/params',
    tag: 'chain',
    summary: 'What wallets need to build transactions: chain id, authorities, fork heights',
    ok: {
      schema: obj({
        chainId: str,
        blockTimeMs: uint,
        authorities: arr(address),
        blockReward: { ...big, description: "what the next block mints: the supply's rewardPerBlock (0 from fork 2 on)" },
        forks: { ...record(uint), description: 'activation height of forks 2..6, and of fork 7 when scheduled' },
        nextHeight: uint,
      }),
    },
  },
  getApiChainGenesisConfig: {
    method: 'GET',
    path: '/api/chain/genesis-config',
    tag: 'chain',
    summary:
      'The genesis document the node runs (allocations and the fork heights in force): what a mirror needs to fold the state from block 0',
    ok: {
      schema: obj(
        {
          chainId: str,
          timestamp: ms,
          blockTimeMs: uint,
          authorities: arr(address),
          allocations: { ...record(big), description: 'micro-units minted to each address at genesis' },
          blockReward: big,
          forks: { ...record(uint), description: 'activation height of forks 2..6, and of fork 7 when scheduled' },
          finalityDepth: uint,
        },
        ['finalityDepth'],
      ),
    },
  },
  getApiChainNetwork: {
    method: 'GET',
    path: '/api/chain/network',
    tag: 'network',
    summary: "This node's peer id and the multiaddrs other nodes pass to --peer",
    ok: { schema: obj({ peerId: nullable(str), addresses: arr(str) }) },
  },
  getApiChainPeers: {
    method: 'GET',
    path: '/api/chain/peers',
    tag: 'network',
    summary: 'Connected peers',
    ok: { schema: obj({ peerId: nullable(str), count: uint, peers: arr(obj({ peerId: str, addresses: arr(str) })) }) },
  },
  getApiChainEvidence: {
    method: 'GET',
    path: '/api/chain/evidence',
    tag: 'network',
    summary: 'Equivocation evidence: two blocks for one slot, both attested by its authority (the second is never built upon)',
    ok: {
      schema: obj({
        count: uint,
        evidence: arr(
          obj({
            proposer: address,
            slot: uint,
            height: uint,
            first: obj({ index: uint, hash, previousHash: hash, timestamp: ms, proposer: address }),
            second: obj({ index: uint, hash, previousHash: hash, timestamp: ms, proposer: address }),
            seenAt: ms,
          }),
        ),
      }),
    },
  },
  getApiChainSearchQ: {
    method: 'GET',
    path: '/api/chain/search/:q',
    tag: 'chain',
    summary:
      'Search every id kind: blocks, transactions, addresses, tasks, agent runs, conversations, NFTs, posts, profiles, sites, aliases, releases, drive files, miners, DMs',
    description:
      'An array of `{type, data}` hits, `type` one of block, tx, address, task, run, conversation, nft (`data.kind`: art, image or audio), post, profile, site, alias, release, file, miner, dm. Exact ids come first, then addresses and names that start with the query (in key order); at most `limit` hits.',
    params: { q: searchQuery },
    query: { limit: limit(50, 20) },
    ok: { schema: arr(searchHit) },
  },
  getApiChainEvents: {
    method: 'GET',
    path: '/api/chain/events',
    tag: 'streams',
    summary: 'Live chain events (SSE): hello, block, tx, reorg, ping; resumable',
    description:
      'Server-sent events. Resume with `Last-Event-ID: H:HASH` (the last id received, what EventSource sends) or `?fromHeight=N`: missed blocks are replayed from the log, then live, with no gap and no repeat; a block replaced since is announced first with a `reorg` naming the dropped blocks.',
    query: { fromHeight: { schema: uint, description: 'first height wanted (at most 10,000 behind the head)', example: 0 } },
    headers: {
      'Last-Event-ID': {
        schema: str,
        description: 'the last event id received, `<height>:<hash>` (a bare height is taken); wins over fromHeight',
        example: '42:9d90cbc82ebc62f1343b3fc871ca55bb96d92e2f99d8e726e73e945445e496c7',
      },
    },
    ok: { contentType: 'text/event-stream', description: 'an endless event stream' },
    errors: [429],
  },
  getApiMempoolEvents: {
    method: 'GET',
    path: '/api/mempool/events',
    tag: 'streams',
    summary: 'Mempool size (SSE): hello, then a snapshot every 3 s',
    ok: { contentType: 'text/event-stream', description: 'an endless event stream' },
    errors: [429],
  },
});
