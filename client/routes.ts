/**
 * Every route of the node: method and path template by operation id, path parameters and query values.
 * Generated from api/endpoints/ by `npm run docs` (a test fails when it is stale): do not edit.
 */

/** Method and path template of every operation. */
export const ROUTES = {
  getApiHealth: ['GET', '/api/health'],
  getApiChainStats: ['GET', '/api/chain/stats'],
  getApiChainHeight: ['GET', '/api/chain/height'],
  getApiChainAccountAddress: ['GET', '/api/chain/account/:address'],
  getApiChainParams: ['GET', '/api/chain/params'],
  getApiChainGenesisConfig: ['GET', '/api/chain/genesis-config'],
  getApiChainNetwork: ['GET', '/api/chain/network'],
  getApiChainPeers: ['GET', '/api/chain/peers'],
  getApiChainEvidence: ['GET', '/api/chain/evidence'],
  getApiChainSearchQ: ['GET', '/api/chain/search/:q'],
  getApiChainEvents: ['GET', '/api/chain/events'],
  getApiMempoolEvents: ['GET', '/api/mempool/events'],
  getApiChainGenesis: ['GET', '/api/chain/genesis'],
  getApiChainBlockHashHash: ['GET', '/api/chain/block/hash/:hash'],
  getApiChainBlockLatest: ['GET', '/api/chain/block/latest'],
  getApiChainBlockIndex: ['GET', '/api/chain/block/:index'],
  getApiChainBlocks: ['GET', '/api/chain/blocks'],
  getApiChainBlockTimes: ['GET', '/api/chain/block-times'],
  getApiChainBlocksFull: ['GET', '/api/chain/blocks-full'],
  postApiChainTx: ['POST', '/api/chain/tx'],
  getApiChainTxHash: ['GET', '/api/chain/tx/:hash'],
  getApiChainTxs: ['GET', '/api/chain/txs'],
  getApiChainMempool: ['GET', '/api/chain/mempool'],
  getApiMempool: ['GET', '/api/mempool'],
  getApiWalletBalanceAddress: ['GET', '/api/wallet/balance/:address'],
  getApiTokenomicsSupply: ['GET', '/api/tokenomics/supply'],
  getApiTokenomicsHolders: ['GET', '/api/tokenomics/holders'],
  getApiTokenomicsDistribution: ['GET', '/api/tokenomics/distribution'],
  getApiAddressAddr: ['GET', '/api/address/:addr'],
  getApiAddressAddrBalance: ['GET', '/api/address/:addr/balance'],
  getApiAddressAddrTxs: ['GET', '/api/address/:addr/txs'],
  getApiStatsTps: ['GET', '/api/stats/tps'],
  getApiStatsValidators: ['GET', '/api/stats/validators'],
  getApiStatsSupply: ['GET', '/api/stats/supply'],
  getApiChainTasks: ['GET', '/api/chain/tasks'],
  getApiChainTaskId: ['GET', '/api/chain/task/:id'],
  getApiChainFeeEstimate: ['GET', '/api/chain/fee-estimate'],
  postApiTasksSubmit: ['POST', '/api/tasks/submit'],
  getApiTasksActive: ['GET', '/api/tasks/active'],
  getApiTasksPending: ['GET', '/api/tasks/pending'],
  getApiTasksId: ['GET', '/api/tasks/:id'],
  getApiMiners: ['GET', '/api/miners'],
  getApiMinersByAddressAddress: ['GET', '/api/miners/by-address/:address'],
  getApiMinersId: ['GET', '/api/miners/:id'],
  getApiAnalyticsOverview: ['GET', '/api/analytics/overview'],
  getApiAnalyticsHeatmap: ['GET', '/api/analytics/heatmap'],
  getApiAnalyticsSeries: ['GET', '/api/analytics/series'],
  getApiAnalyticsTotals: ['GET', '/api/analytics/totals'],
  getApiNft: ['GET', '/api/nft'],
  getApiNftOwnerAddress: ['GET', '/api/nft/owner/:address'],
  getApiNftTokenIdSvg: ['GET', '/api/nft/:tokenId/svg'],
  getApiNftTokenId: ['GET', '/api/nft/:tokenId'],
  getApiImage: ['GET', '/api/image'],
  getApiImageOwnerAddress: ['GET', '/api/image/owner/:address'],
  getApiImageTokenIdFile: ['GET', '/api/image/:tokenId/file'],
  getApiImageTokenId: ['GET', '/api/image/:tokenId'],
  getApiAudio: ['GET', '/api/audio'],
  getApiAudioOwnerAddress: ['GET', '/api/audio/owner/:address'],
  getApiAudioTokenIdFile: ['GET', '/api/audio/:tokenId/file'],
  getApiAudioTokenId: ['GET', '/api/audio/:tokenId'],
  getApiAgentV6RunAgentRunIdSteps: ['GET', '/api/agent/v6/run/:agentRunId/steps'],
  getApiAgentV6RunAgentRunId: ['GET', '/api/agent/v6/run/:agentRunId'],
  getApiAgentV6ByStatusStatus: ['GET', '/api/agent/v6/by-status/:status'],
  getApiAgentV6BySubmitterAddress: ['GET', '/api/agent/v6/by-submitter/:address'],
  getApiAgentV6ByMinerAddress: ['GET', '/api/agent/v6/by-miner/:address'],
  getApiAgentV6ChatConversationIdTurns: ['GET', '/api/agent/v6/chat/:conversationId/turns'],
  getApiAgentV6ChatConversationId: ['GET', '/api/agent/v6/chat/:conversationId'],
  getApiAgentV6ChatByAuthorAddress: ['GET', '/api/agent/v6/chat-by-author/:address'],
  getApiSocialCaps: ['GET', '/api/social/caps'],
  getApiSocialFeed: ['GET', '/api/social/feed'],
  getApiSocialPostPostId: ['GET', '/api/social/post/:postId'],
  getApiSocialPostPostIdLikes: ['GET', '/api/social/post/:postId/likes'],
  getApiSocialPostPostIdReplies: ['GET', '/api/social/post/:postId/replies'],
  getApiSocialAuthorAddressPosts: ['GET', '/api/social/author/:address/posts'],
  getApiSocialSubscriptionsSubscriber: ['GET', '/api/social/subscriptions/:subscriber'],
  getApiSocialFollowersAddress: ['GET', '/api/social/followers/:address'],
  getApiSocialQueueAuthor: ['GET', '/api/social/queue/:author'],
  getApiSocialIntentsIntentId: ['GET', '/api/social/intents/:intentId'],
  getApiSocialDmsAddress: ['GET', '/api/social/dms/:address'],
  getApiSocialProfileAddress: ['GET', '/api/social/profile/:address'],
  getApiSocialBlobBlobId: ['GET', '/api/social/blob/:blobId'],
  getApiWebSites: ['GET', '/api/web/sites'],
  getApiWebReleaseReleaseId: ['GET', '/api/web/release/:releaseId'],
  getApiWebSiteSiteIdReleases: ['GET', '/api/web/site/:siteId/releases'],
  getApiWebReleaseReleaseIdBundle: ['GET', '/api/web/release/:releaseId/bundle'],
  getApiWebAliasAliasBundle: ['GET', '/api/web/alias/:alias/bundle'],
  getApiWebFileFileIdContent: ['GET', '/api/web/file/:fileId/content'],
  getApiWebFileFileId: ['GET', '/api/web/file/:fileId'],
  getWebAlias: ['GET', '/web/:alias'],
  getWebAliasPath: ['GET', '/web/:alias/:path'],
  postApiKeysRegister: ['POST', '/api/keys/register'],
  getApiKeysMe: ['GET', '/api/keys/me'],
  deleteApiKeysId: ['DELETE', '/api/keys/:id'],
  postApiAlertsSubscribe: ['POST', '/api/alerts/subscribe'],
  getApiAlertsConfirmToken: ['GET', '/api/alerts/confirm/:token'],
  postApiAlertsConfirmToken: ['POST', '/api/alerts/confirm/:token'],
  postApiAlertsIdEnable: ['POST', '/api/alerts/:id/enable'],
  postApiAlertsIdSecret: ['POST', '/api/alerts/:id/secret'],
  getApiAlerts: ['GET', '/api/alerts'],
  deleteApiAlertsId: ['DELETE', '/api/alerts/:id'],
  getMetrics: ['GET', '/metrics'],
  getApiOpenapiJson: ['GET', '/api/openapi.json'],
  getDocs: ['GET', '/docs'],
  getDocsFile: ['GET', '/docs/:file'],
  get: ['GET', '/'],
  getExplorerFile: ['GET', '/explorer/:file'],
  getExplorerClientFile: ['GET', '/explorer/client/:file'],
  getExplorerCoreFile: ['GET', '/explorer/core/:file'],
  getExplorerVendorFile: ['GET', '/explorer/vendor/:file'],
  getApiCheckpoint: ['GET', '/api/checkpoint'],
  getApiCheckpointDigest: ['GET', '/api/checkpoint/:digest'],
  getApiCsvAddressAddr: ['GET', '/api/csv/address/:addr'],
  getApiCsvBlockIndex: ['GET', '/api/csv/block/:index'],
  getApiCsvTasks: ['GET', '/api/csv/tasks'],
} as const;

/** An operation id. */
export type OperationId = keyof typeof ROUTES;

/** The path parameters of the operations that have any. */
export interface PathParams {
  getApiChainAccountAddress: { address: string | number };
  getApiChainSearchQ: { q: string | number };
  getApiChainBlockHashHash: { hash: string | number };
  getApiChainBlockIndex: { index: string | number };
  getApiChainTxHash: { hash: string | number };
  getApiWalletBalanceAddress: { address: string | number };
  getApiAddressAddr: { addr: string | number };
  getApiAddressAddrBalance: { addr: string | number };
  getApiAddressAddrTxs: { addr: string | number };
  getApiChainTaskId: { id: string | number };
  getApiTasksId: { id: string | number };
  getApiMinersByAddressAddress: { address: string | number };
  getApiMinersId: { id: string | number };
  getApiNftOwnerAddress: { address: string | number };
  getApiNftTokenIdSvg: { tokenId: string | number };
  getApiNftTokenId: { tokenId: string | number };
  getApiImageOwnerAddress: { address: string | number };
  getApiImageTokenIdFile: { tokenId: string | number };
  getApiImageTokenId: { tokenId: string | number };
  getApiAudioOwnerAddress: { address: string | number };
  getApiAudioTokenIdFile: { tokenId: string | number };
  getApiAudioTokenId: { tokenId: string | number };
  getApiAgentV6RunAgentRunIdSteps: { agentRunId: string | number };
  getApiAgentV6RunAgentRunId: { agentRunId: string | number };
  getApiAgentV6ByStatusStatus: { status: 'pending' | 'claimed' | 'running' | 'completed' | 'failed' | 'timeout' | 'insufficient_funds' | 'cancelled' };
  getApiAgentV6BySubmitterAddress: { address: string | number };
  getApiAgentV6ByMinerAddress: { address: string | number };
  getApiAgentV6ChatConversationIdTurns: { conversationId: string | number };
  getApiAgentV6ChatConversationId: { conversationId: string | number };
  getApiAgentV6ChatByAuthorAddress: { address: string | number };
  getApiSocialPostPostId: { postId: string | number };
  getApiSocialPostPostIdLikes: { postId: string | number };
  getApiSocialPostPostIdReplies: { postId: string | number };
  getApiSocialAuthorAddressPosts: { address: string | number };
  getApiSocialSubscriptionsSubscriber: { subscriber: string | number };
  getApiSocialFollowersAddress: { address: string | number };
  getApiSocialQueueAuthor: { author: string | number };
  getApiSocialIntentsIntentId: { intentId: string | number };
  getApiSocialDmsAddress: { address: string | number };
  getApiSocialProfileAddress: { address: string | number };
  getApiSocialBlobBlobId: { blobId: string | number };
  getApiWebReleaseReleaseId: { releaseId: string | number };
  getApiWebSiteSiteIdReleases: { siteId: string | number };
  getApiWebReleaseReleaseIdBundle: { releaseId: string | number };
  getApiWebAliasAliasBundle: { alias: string | number };
  getApiWebFileFileIdContent: { fileId: string | number };
  getApiWebFileFileId: { fileId: string | number };
  getWebAlias: { alias: string | number };
  getWebAliasPath: { alias: string | number; path: string | number };
  deleteApiKeysId: { id: string | number };
  getApiAlertsConfirmToken: { token: string | number };
  postApiAlertsConfirmToken: { token: string | number };
  postApiAlertsIdEnable: { id: string | number };
  postApiAlertsIdSecret: { id: string | number };
  deleteApiAlertsId: { id: string | number };
  getDocsFile: { file: string | number };
  getExplorerFile: { file: string | number };
  getExplorerClientFile: { file: string | number };
  getExplorerCoreFile: { file: string | number };
  getExplorerVendorFile: { file: string | number };
  getApiCheckpointDigest: { digest: string | number };
  getApiCsvAddressAddr: { addr: string | number };
  getApiCsvBlockIndex: { index: string | number };
}

/** The query values of the operations that take any. */
export interface QueryValues {
  getApiChainSearchQ: { limit?: number };
  getApiChainEvents: { fromHeight?: number };
  getApiChainBlocks: { limit?: number; offset?: number; from?: number; to?: number };
  getApiChainBlockTimes: { count?: number };
  getApiChainBlocksFull: { from?: number; to?: number };
  getApiChainTxs: { offset?: number; cursor?: string; limit?: number };
  getApiChainMempool: { limit?: number; offset?: number };
  getApiMempool: { limit?: number; offset?: number };
  getApiTokenomicsHolders: { limit?: number; offset?: number };
  getApiAddressAddrTxs: { offset?: number; cursor?: string; limit?: number; type?: string; direction?: 'in' | 'out' | 'any'; since?: number; until?: number };
  getApiChainTasks: { limit?: number; offset?: number; status?: 'submitted' | 'responses_collected' | 'validated' | 'rewarded' | 'timeout' };
  getApiTasksActive: { limit?: number; offset?: number };
  getApiTasksPending: { limit?: number; offset?: number };
  getApiMiners: { limit?: number; offset?: number };
  getApiAnalyticsOverview: { range?: '24h' | '7d' | '30d' };
  getApiAnalyticsSeries: { range?: '24h' | '7d' | '30d'; step?: 'hour' | 'day' };
  getApiNft: { limit?: number; offset?: number };
  getApiNftOwnerAddress: { limit?: number; offset?: number };
  getApiImage: { limit?: number; offset?: number };
  getApiImageOwnerAddress: { limit?: number; offset?: number };
  getApiAudio: { limit?: number; offset?: number };
  getApiAudioOwnerAddress: { limit?: number; offset?: number };
  getApiAgentV6ByStatusStatus: { limit?: number; offset?: number };
  getApiAgentV6BySubmitterAddress: { limit?: number; offset?: number };
  getApiAgentV6ByMinerAddress: { limit?: number; offset?: number };
  getApiAgentV6ChatConversationIdTurns: { limit?: number; offset?: number };
  getApiAgentV6ChatByAuthorAddress: { limit?: number; offset?: number };
  getApiSocialFeed: { limit?: number; offset?: number };
  getApiSocialPostPostIdLikes: { limit?: number; offset?: number };
  getApiSocialPostPostIdReplies: { limit?: number; offset?: number };
  getApiSocialAuthorAddressPosts: { limit?: number; offset?: number };
  getApiSocialSubscriptionsSubscriber: { limit?: number; offset?: number };
  getApiSocialFollowersAddress: { limit?: number; offset?: number };
  getApiSocialQueueAuthor: { limit?: number; offset?: number };
  getApiSocialDmsAddress: { limit?: number; offset?: number };
  getApiWebSites: { limit?: number; offset?: number };
  getApiWebReleaseReleaseId: { limit?: number; offset?: number };
  getApiWebSiteSiteIdReleases: { limit?: number; offset?: number };
  getApiCsvAddressAddr: { type?: string; direction?: 'in' | 'out' | 'any'; since?: number; until?: number };
  getApiCsvTasks: { status?: 'submitted' | 'responses_collected' | 'validated' | 'rewarded' | 'timeout' };
}

