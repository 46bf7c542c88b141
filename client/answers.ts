/**
 * The JSON answer of every operation, typed from the same schemas as the OpenAPI document's.
 * Generated from api/endpoints/ by `npm run docs` (a test fails when it is stale): do not edit.
 */

import type { SignedTx } from '../core/tx/handler.ts';
import type { Components } from './records.ts';

/** The successful answer of every operation (text, HTML and media answers are strings). */
export interface Answers {
  getApiHealth: { status: 'ok'; height: number; peers: number; syncing: boolean; checkpoint?: 'verifying' | 'verified' };
  getApiChainStats: {
    height: number;
    latestBlockHash: string;
    totalMiners: number;
    recentTxCount: number;
    recentRewards: string;
    activeProposers: number;
    p2pPeers: number;
  };
  getApiChainHeight: { height: number; latestBlock: { index: number; hash: string; timestamp: number } };
  getApiChainAccountAddress: {
    address: string;
    balance: string;
    nonce: number;
    nextNonce: number;
    isMiner: boolean;
    miner?: Components['MinerDetail'];
    profile?: { address: string; displayName: string; bio: string; avatarBlobId?: string };
    recentTxs: Components['ListedTx'][];
  };
  getApiChainParams: {
    chainId: string;
    blockTimeMs: number;
    authorities: string[];
    blockReward: string;
    forks: Record<string, number>;
    nextHeight: number;
  };
  getApiChainGenesisConfig: {
    chainId: string;
    timestamp: number;
    blockTimeMs: number;
    authorities: string[];
    allocations: Record<string, string>;
    blockReward: string;
    forks: Record<string, number>;
    finalityDepth?: number;
  };
  getApiChainNetwork: { peerId: string | null; addresses: string[] };
  getApiChainPeers: { peerId: string | null; count: number; peers: { peerId: string; addresses: string[] }[] };
  getApiChainEvidence: {
    count: number;
    evidence: {
      proposer: string;
      slot: number;
      height: number;
      first: { index: number; hash: string; previousHash: string; timestamp: number; proposer: string };
      second: { index: number; hash: string; previousHash: string; timestamp: number; proposer: string };
      seenAt: number;
    }[];
  };
  getApiChainSearchQ: ({ type: 'block'; data: Components['BlockSummary'] } | { type: 'tx'; data: Components['ConfirmedTx'] } | { type: 'address'; data: Components['AddressBrief'] } | { type: 'task'; data: Components['TaskSummary'] } | { type: 'run'; data: { agentRunId: string; conversationId: string; submitter: string; status: string; submittedAt: number } } | { type: 'conversation'; data: Components['Conversation'] } | { type: 'nft'; data: { kind: 'art' | 'image' | 'audio'; tokenId: string; owner: string; mintedAt: number; blockIndex: number } } | { type: 'post'; data: { postId: string; author: string; likeCount: number; timestamp: number; blockIndex: number } } | { type: 'profile'; data: { address: string; displayName: string } } | { type: 'site'; data: { siteId: string; name: string; owner: string; activeReleaseId: string | null; releaseCount: number } } | { type: 'alias'; data: { alias: string; siteId: string; owner: string } } | { type: 'release'; data: { releaseId: string; siteId: string; seq: number; files: number; publishedAt: number } } | {
    type: 'file';
    data: {
      fileId: string;
      siteId: string;
      path: string;
      contentType: string;
      totalBytes: number;
      status: 'pending' | 'complete' | 'expired' | 'deleted';
    };
  } | { type: 'miner'; data: { id: string; name: string; address: string } } | { type: 'dm'; data: { dmId: string; from: string; blockIndex: number } })[];
  getApiChainEvents: string;
  getApiMempoolEvents: string;
  getApiChainGenesis: Components['Block'];
  getApiChainBlockHashHash: Components['Block'];
  getApiChainBlockLatest: Components['Block'];
  getApiChainBlockIndex: Components['Block'];
  getApiChainBlocks: { blocks: Components['BlockSummary'][]; total: number } | Components['BlockRange'];
  getApiChainBlockTimes: { blocks: Components['BlockSummary'][]; height: number };
  getApiChainBlocksFull: Components['BlockRange'];
  postApiChainTx: { ok: true; hash: string; txHash?: string };
  getApiChainTxHash: SignedTx & { blockIndex: number; blockHeight: number; blockHash: string; position: number; status: 'confirmed' } | SignedTx & { status: 'pending' };
  getApiChainTxs: { count: number; total: number; txs: Components['ListedTx'][]; nextCursor: string | null };
  getApiChainMempool: Components['MempoolPage'];
  getApiMempool: Components['MempoolPage'];
  getApiWalletBalanceAddress: {
    address: string;
    balance: string;
    balanceOmbra: string;
    nonce: number;
    storageCapacity: string;
    storageUsed: string;
    storageFree: string;
  };
  getApiTokenomicsSupply: { totalEmitted: string; circulating: string; blocksProduced: number; rewardPerBlock: string };
  getApiTokenomicsHolders: { totalHolders: number; totalSupply: string; holders: { address: string; balance: string; percentage: number }[] };
  getApiTokenomicsDistribution: { buckets: { range: string; count: number }[] };
  getApiAddressAddr: Components['AddressBrief'];
  getApiAddressAddrBalance: { address: string; balance: string };
  getApiAddressAddrTxs: { address: string; count: number; total: number; txs: Components['ListedTx'][]; nextCursor: string | null };
  getApiStatsTps: { average: number; peak: number; peakBlock: number | null; blocks: number; transactions: number; seconds: number };
  getApiStatsValidators: {
    blocks: number;
    fromSlot: number | null;
    toSlot: number | null;
    validators: { address: string; proposed: number; missed: number }[];
  };
  getApiStatsSupply: {
    totalEmitted: string;
    circulating: string;
    totalSupply: string;
    totalBurned: string;
    escrow: string;
    feesPaid: string;
    blocksProduced: number;
    rewardPerBlock: string;
  };
  getApiChainTasks: Components['TaskList'];
  getApiChainTaskId: Components['TaskPipeline'];
  getApiChainFeeEstimate: { low: string; medium: string; high: string; sample: number };
  postApiTasksSubmit: { ok: true; taskId: string; txHash: string; hash: string };
  getApiTasksActive: Components['TaskList'];
  getApiTasksPending: {
    tasks: {
      taskId: string;
      txHash: string;
      submitter: string;
      taskType: string;
      prompt: string;
      fee: string;
      timeoutMs: number;
      nonce: number;
      timestamp: number;
    }[];
    total: number;
  };
  getApiTasksId: Components['TaskPipeline'];
  getApiMiners: { miners: Components['Miner'][]; total: number };
  getApiMinersByAddressAddress: Components['Miner'] | null;
  getApiMinersId: Components['Miner'];
  getApiAnalyticsOverview: {
    range: '24h' | '7d' | '30d';
    blocks: number;
    txCount: number;
    totalRewards: string;
    totalBurned: string;
    totalFees: string;
    avgBlockTimeMs: number | null;
    uniqueMiners: number;
    uniqueSubmitters: number;
    topTaskTypes: { type: string; count: number }[];
  };
  getApiAnalyticsHeatmap: { matrix: number[][] };
  getApiAnalyticsSeries: {
    range: '24h' | '7d' | '30d';
    step: 'hour' | 'day';
    points: {
      start: number;
      blocks: number;
      txCount: number;
      tps: number;
      blockTimeMs: number | null;
      activeMiners: number;
      submitters: number;
      tasks: number;
      taskTypes: Record<string, number>;
      fees: string;
      rewards: string;
      burned: string;
      storageUsed: string;
    }[];
  };
  getApiAnalyticsTotals: {
    height: number;
    transactions: number;
    tasks: number;
    agentRuns: number;
    miners: number;
    activeMiners24h: number;
    transactions24h: number;
    blocks24h: number;
    tps: { average: number; peak: number };
    blockTimeMs24h: number | null;
    circulatingSupply: string;
    totalBurned: string;
    feesPaid: string;
    storageUsed: string;
  };
  getApiNft: { total: number; items: Components['ArtNft'][] };
  getApiNftOwnerAddress: { owner: string; count: number; items: Components['ArtNft'][] };
  getApiNftTokenIdSvg: string;
  getApiNftTokenId: Components['ArtNft'];
  getApiImage: { total: number; items: Components['ImageNft'][] };
  getApiImageOwnerAddress: { owner: string; count: number; items: Components['ImageNft'][] };
  getApiImageTokenIdFile: string;
  getApiImageTokenId: Components['ImageNft'];
  getApiAudio: { total: number; items: Components['AudioNft'][] };
  getApiAudioOwnerAddress: { owner: string; count: number; items: Components['AudioNft'][] };
  getApiAudioTokenIdFile: string;
  getApiAudioTokenId: Components['AudioNft'];
  getApiAgentV6RunAgentRunIdSteps: { agentRunId: string; count: number; steps: Components['RunStep'][] };
  getApiAgentV6RunAgentRunId: Components['RunRecord'];
  getApiAgentV6ByStatusStatus: { status: string; count: number; runs: Components['RunRecord'][] };
  getApiAgentV6BySubmitterAddress: { submitter: string; count: number; runs: Components['RunRecord'][] };
  getApiAgentV6ByMinerAddress: { miner: string; count: number; runs: Components['RunRecord'][] };
  getApiAgentV6ChatConversationIdTurns: { conversationId: string; count: number; turns: Components['Turn'][] };
  getApiAgentV6ChatConversationId: Components['Conversation'];
  getApiAgentV6ChatByAuthorAddress: { author: string; count: number; conversationIds: string[] };
  getApiSocialCaps: { maxTokensPerLikeHard: number; maxDailyTokensHard: number; queueCapPerAuthor: number; likeExpiryMs: number };
  getApiSocialFeed: {
    count: number;
    posts: {
      postId: string;
      author: string;
      likeCount: number;
      timestamp: number;
      blockIndex: number;
      txHash: string;
      body: string;
      blobIds: string[];
      parentPostId?: string;
    }[];
  };
  getApiSocialPostPostId: {
    postId: string;
    author: string;
    likeCount: number;
    timestamp: number;
    blockIndex: number;
    txHash: string;
    body: string;
    blobIds: string[];
    parentPostId?: string;
    likes: { address: string; kind: 'reaction' | 'intent'; tokens?: number; timestamp: number }[];
  };
  getApiSocialPostPostIdLikes: { postId: string; count: number; likes: { address: string; kind: 'reaction' | 'intent'; tokens?: number; timestamp: number }[] };
  getApiSocialPostPostIdReplies: {
    postId: string;
    count: number;
    replies: {
      postId: string;
      author: string;
      likeCount: number;
      timestamp: number;
      blockIndex: number;
      txHash: string;
      body: string;
      blobIds: string[];
      parentPostId?: string;
    }[];
  };
  getApiSocialAuthorAddressPosts: {
    author: string;
    count: number;
    posts: {
      postId: string;
      author: string;
      likeCount: number;
      timestamp: number;
      blockIndex: number;
      txHash: string;
      body: string;
      blobIds: string[];
      parentPostId?: string;
    }[];
  };
  getApiSocialSubscriptionsSubscriber: { subscriber: string; count: number; subscriptions: string[] };
  getApiSocialFollowersAddress: { address: string; count: number; followers: string[] };
  getApiSocialQueueAuthor: {
    author: string;
    count: number;
    intents: {
      intentId: string;
      from: string;
      author: string;
      postId: string;
      tokens: number;
      status: 'pending' | 'paid' | 'expired';
      createdAt: number;
      expiresAt: number;
      settledAt?: number;
      blockIndex: number;
    }[];
  };
  getApiSocialIntentsIntentId: {
    intentId: string;
    from: string;
    author: string;
    postId: string;
    tokens: number;
    status: 'pending' | 'paid' | 'expired';
    createdAt: number;
    expiresAt: number;
    settledAt?: number;
    blockIndex: number;
  };
  getApiSocialDmsAddress: {
    address: string;
    count: number;
    messages: {
      dmId: string;
      from: string;
      recipient: string;
      ciphertext: string;
      nonceHex: string;
      ephemeralPubKey: string;
      contentHash: string;
      blobIds: string[];
      timestamp: number;
      blockIndex: number;
    }[];
  };
  getApiSocialProfileAddress: { address: string; displayName: string; bio: string; avatarBlobId?: string };
  getApiSocialBlobBlobId: string;
  getApiWebSites: {
    count: number;
    sites: {
      siteId: string;
      owner: string;
      name: string;
      activeReleaseId: string | null;
      releaseCount: number;
      createdAt: number;
      blockIndex: number;
    }[];
  };
  getApiWebReleaseReleaseId: {
    releaseId: string;
    siteId: string;
    seq: number;
    merkleRoot: string;
    publishedAt: number;
    blockIndex: number;
    count: number;
    files: { path: string; fileId: string }[];
  };
  getApiWebSiteSiteIdReleases: {
    siteId: string;
    owner: string;
    name: string;
    activeReleaseId: string | null;
    total: number;
    releases: { releaseId: string; merkleRoot: string; files: number; publishedAt: number; blockIndex: number }[];
  };
  getApiWebReleaseReleaseIdBundle: {
    releaseId: string;
    siteId: string;
    merkleRoot: string;
    files: { path: string; fileId: string; contentType: string; size: number; chunks: string[] }[];
  };
  getApiWebAliasAliasBundle: {
    releaseId: string;
    siteId: string;
    merkleRoot: string;
    files: { path: string; fileId: string; contentType: string; size: number; chunks: string[] }[];
  };
  getApiWebFileFileIdContent: string;
  getApiWebFileFileId: {
    fileId: string;
    siteId: string;
    path: string;
    contentType: string;
    totalBytes: number;
    totalChunks: number;
    contentHash: string;
    owner: string;
    status: 'pending' | 'complete' | 'expired' | 'deleted';
    received: number;
    receivedBytes: number;
    createdAt: number;
    blockIndex: number;
    closedAt?: number;
  };
  getWebAlias: string;
  getWebAliasPath: string;
  postApiKeysRegister: { id: string; key: string; tier: number; label: string; createdAt: number };
  getApiKeysMe: { keys: Components['ApiKey'][] };
  deleteApiKeysId: { ok: true; id: string; revoked: true; keysRevoked: number };
  postApiAlertsSubscribe: { id: string; token: string; secret?: string; trigger: string; createdAt: number; status: 'active' | 'unconfirmed' };
  getApiAlertsConfirmToken: { id: string; trigger: string; address: unknown; target: string; expiresAt: number; status: 'unconfirmed'; confirm: string };
  postApiAlertsConfirmToken: { ok: true; id: string; confirmed: true };
  postApiAlertsIdEnable: { ok: true; id: string; enabled: true };
  postApiAlertsIdSecret: { id: string; secret: string; previousSecretValidUntil: number };
  getApiAlerts: { alerts: Components['Alert'][] };
  deleteApiAlertsId: { ok: true; id: string; removed: true };
  getMetrics: string;
  getApiOpenapiJson: Record<string, unknown>;
  getDocs: string;
  getDocsFile: string;
  get: string;
  getExplorerFile: string;
  getExplorerClientFile: string;
  getExplorerCoreFile: string;
  getExplorerVendorFile: string;
  getApiCheckpoint: { height: number; hash: string; digest: string; bytes: number; url: string };
  getApiCheckpointDigest: string;
  getApiCsvAddressAddr: string;
  getApiCsvBlockIndex: string;
  getApiCsvTasks: string;
}

