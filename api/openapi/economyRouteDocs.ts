/** The catalog of the AI-economy and NFT routes. */
import { addressParam, CONTENT_HEADERS, hashParam, keyedList, paging, type ParamDoc, type RouteCatalog } from './routeDoc.ts';
import { address, arr, big, hash, ms, nullable, obj, oneOf, ref, str, uint } from './shapes.ts';

const taskId: ParamDoc = { schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{8,64}$' }, description: 'task id' };
const TASK_STATUS_Q: ParamDoc = {
  schema: oneOf('submitted', 'responses_collected', 'validated', 'rewarded', 'timeout'),
  description: 'only tasks in this status',
};
const RUN_STATUS: ParamDoc = {
  schema: oneOf('pending', 'claimed', 'running', 'completed', 'failed', 'timeout', 'insufficient_funds', 'cancelled'),
  description: 'run status',
};
const nftList = obj({ total: uint, items: arr(ref('ArtNft')) });

/** Media NFT routes of one kind (image: fork 4, audio: fork 5). */
function media(kind: 'image' | 'audio', fork: number): RouteCatalog {
  const tag = 'nft';
  const gate = `before fork ${fork}: 403 FORK_NOT_ACTIVE`;
  const record = ref(kind === 'image' ? 'ImageNft' : 'AudioNft');
  const types = kind === 'image' ? 'image/png, image/jpeg or image/webp' : 'audio/wav, audio/mpeg or audio/ogg';
  return {
    [`GET /api/${kind}`]: {
      tag,
      summary: `${kind} NFTs, newest first (${gate})`,
      query: paging(100),
      ok: { schema: obj({ total: uint, items: arr(record) }) },
      errors: [403],
    },
    [`GET /api/${kind}/owner/:address`]: {
      tag,
      summary: `An owner's ${kind} NFTs, newest first (count: all of them)`,
      params: { address: addressParam },
      query: paging(100),
      ok: { schema: keyedList('owner', address, 'items', record) },
      errors: [403],
    },
    [`GET /api/${kind}/:tokenId/file`]: {
      tag,
      summary: `The ${kind} file of an NFT, byte for byte the blob it was minted from`,
      description: `Content-Type ${types} (from the NFT's format); Cache-Control "public, max-age=31536000, immutable"; ETag = the blob's SHA-256 in quotes; If-None-Match with it answers 304 without a body.`,
      params: { tokenId: hashParam('token id') },
      headers: CONTENT_HEADERS,
      ok: { contentType: kind === 'image' ? 'image/*' : 'audio/*', description: 'the media bytes' },
      errors: [403, 404, 416],
    },
    [`GET /api/${kind}/:tokenId`]: {
      tag,
      summary: `A ${kind} NFT`,
      params: { tokenId: hashParam('token id') },
      ok: { schema: record },
      errors: [403, 404],
    },
  };
}

/** Economy routes. */
export const ECONOMY_ROUTES: RouteCatalog = {
  'GET /api/chain/tasks': {
    tag: 'tasks',
    summary: 'Task summaries, newest first',
    query: { ...paging(100), status: TASK_STATUS_Q },
    ok: { schema: ref('TaskList') },
  },
  'GET /api/chain/task/:id': {
    tag: 'tasks',
    summary: "A task's pipeline record",
    params: { id: taskId },
    ok: { schema: ref('TaskPipeline') },
    errors: [404],
  },
  'GET /api/chain/fee-estimate': {
    tag: 'tasks',
    summary: 'TASK_SUBMIT fee percentiles (25th, 50th, 90th) of the last 100',
    ok: { schema: obj({ low: big, medium: big, high: big, sample: uint }) },
  },
  'POST /api/tasks/submit': {
    tag: 'tasks',
    summary: 'Submit a signed TASK_SUBMIT',
    body: { schema: ref('Tx_TASK_SUBMIT'), description: 'a signed TASK_SUBMIT (or the `{tx, signature}` form)' },
    ok: { schema: obj({ ok: { const: true }, taskId: str, txHash: hash, hash }) },
    errors: [403, 409, 413, 422, 503],
  },
  'GET /api/tasks/active': {
    tag: 'tasks',
    summary: 'Tasks miners may still answer (submitted, responses_collected)',
    query: paging(100),
    ok: { schema: ref('TaskList') },
  },
  'GET /api/tasks/pending': {
    tag: 'tasks',
    summary: 'TASK_SUBMITs waiting in the mempool, in arrival order (total: all of them)',
    query: paging(100),
    ok: {
      schema: obj({
        tasks: arr(
          obj({
            taskId: str,
            txHash: hash,
            submitter: address,
            taskType: str,
            prompt: str,
            fee: str,
            timeoutMs: uint,
            nonce: uint,
            timestamp: ms,
          }),
        ),
        total: uint,
      }),
    },
  },
  'GET /api/tasks/:id': {
    tag: 'tasks',
    summary: "A task's pipeline record",
    params: { id: taskId },
    ok: { schema: ref('TaskPipeline') },
    errors: [404],
  },
  'GET /api/miners': {
    tag: 'miners',
    summary: 'Registered miners',
    query: paging(100),
    ok: { schema: obj({ miners: arr(ref('Miner')), total: uint }) },
  },
  'GET /api/miners/by-address/:address': {
    tag: 'miners',
    summary: "An address's miner (null for a non-miner)",
    params: { address: addressParam },
    ok: { schema: nullable(ref('Miner')) },
  },
  'GET /api/miners/:id': {
    tag: 'miners',
    summary: 'A miner',
    params: { id: hashParam('miner id') },
    ok: { schema: ref('Miner') },
    errors: [404],
  },
  'GET /api/nft': { tag: 'nft', summary: 'Art NFTs, newest first (fork 3)', query: paging(100), ok: { schema: nftList }, errors: [403] },
  'GET /api/nft/owner/:address': {
    tag: 'nft',
    summary: "An owner's art NFTs",
    params: { address: addressParam },
    query: paging(100),
    ok: { schema: keyedList('owner', address, 'items', ref('ArtNft')) },
    errors: [403],
  },
  'GET /api/nft/:tokenId/svg': {
    tag: 'nft',
    summary: "An art NFT's SVG (served under a CSP that allows only inline styles)",
    params: { tokenId: hashParam('token id') },
    ok: { contentType: 'image/svg+xml', description: 'the minted SVG' },
    errors: [403, 404],
  },
  'GET /api/nft/:tokenId': {
    tag: 'nft',
    summary: 'An art NFT',
    params: { tokenId: hashParam('token id') },
    ok: { schema: ref('ArtNft') },
    errors: [403, 404],
  },
  ...media('image', 4),
  ...media('audio', 5),
  'GET /api/agent/v6/run/:agentRunId/steps': {
    tag: 'agents',
    summary: "A run's steps",
    params: { agentRunId: hashParam('agent run id') },
    ok: { schema: keyedList('agentRunId', hash, 'steps', ref('RunStep')) },
    errors: [403, 404],
  },
  'GET /api/agent/v6/run/:agentRunId': {
    tag: 'agents',
    summary: 'An agent run',
    params: { agentRunId: hashParam('agent run id') },
    ok: { schema: ref('RunRecord') },
    errors: [403, 404],
  },
  'GET /api/agent/v6/by-status/:status': {
    tag: 'agents',
    summary: 'Runs in a status, oldest first (the queue miners poll)',
    params: { status: RUN_STATUS },
    query: paging(100),
    ok: { schema: keyedList('status', str, 'runs', ref('RunRecord')) },
    errors: [403],
  },
  'GET /api/agent/v6/by-submitter/:address': {
    tag: 'agents',
    summary: "A submitter's runs, newest first",
    params: { address: addressParam },
    query: paging(100),
    ok: { schema: keyedList('submitter', address, 'runs', ref('RunRecord')) },
    errors: [403],
  },
  'GET /api/agent/v6/by-miner/:address': {
    tag: 'agents',
    summary: "A miner's runs, newest first",
    params: { address: addressParam },
    query: paging(100),
    ok: { schema: keyedList('miner', address, 'runs', ref('RunRecord')) },
    errors: [403],
  },
  'GET /api/agent/v6/chat/:conversationId/turns': {
    tag: 'agents',
    summary: "A conversation's latest turns (offset: skip that many of the latest), in chronological order",
    params: { conversationId: hashParam('conversation id') },
    query: paging(1000, 200),
    ok: { schema: keyedList('conversationId', hash, 'turns', ref('Turn')) },
    errors: [403, 404],
  },
  'GET /api/agent/v6/chat/:conversationId': {
    tag: 'agents',
    summary: 'A conversation',
    params: { conversationId: hashParam('conversation id') },
    ok: { schema: ref('Conversation') },
    errors: [403, 404],
  },
  'GET /api/agent/v6/chat-by-author/:address': {
    tag: 'agents',
    summary: 'The conversations an address wrote in, by its first turn in each',
    params: { address: addressParam },
    query: paging(100),
    ok: { schema: keyedList('author', address, 'conversationIds', hash) },
    errors: [403],
  },
  'GET /api/analytics/overview': {
    tag: 'analytics',
    summary: 'Blocks, transactions, rewards, burns, miners, submitters and task types over a range',
    query: { range: { schema: oneOf('24h', '7d', '30d'), description: 'whole UTC hours ending with the latest block (default 24h)' } },
    ok: {
      schema: obj({
        range: oneOf('24h', '7d', '30d'),
        blocks: uint,
        txCount: uint,
        totalRewards: str,
        totalBurned: str,
        uniqueMiners: uint,
        uniqueSubmitters: uint,
        topTaskTypes: arr(obj({ type: str, count: uint })),
      }),
    },
  },
  'GET /api/analytics/heatmap': {
    tag: 'analytics',
    summary: 'Transactions by weekday (Monday first) and UTC hour',
    ok: {
      schema: obj({
        matrix: { type: 'array', minItems: 7, maxItems: 7, items: { type: 'array', minItems: 24, maxItems: 24, items: uint } },
      }),
    },
  },
};
