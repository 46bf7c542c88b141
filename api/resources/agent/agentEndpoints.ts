/** The definitions of the agent run and chat routes (/api/agent/v6). */
import { RUN_STATUSES } from '../../../projections/agentRuns.ts';
import { endpoints } from '../../endpoints/endpoint.ts';
import { addressParam, hashParam, lazy, limit, offset, oneOfParam, paging } from '../../endpoints/params.ts';
import { EXAMPLE_IDS } from '../../endpoints/examples.ts';
import { address, hash, keyedList, str } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';

/** Agent runs and chat (fork 6). */
export const AGENT_ENDPOINTS = endpoints({
  getApiAgentV6RunAgentRunIdSteps: {
    method: 'GET',
    path: '/api/agent/v6/run/:agentRunId/steps',
    tag: 'agents',
    summary: "A run's steps",
    params: { agentRunId: hashParam('agent run id', 'agentRunId', EXAMPLE_IDS.agentRun) },
    ok: { schema: keyedList('agentRunId', hash, 'steps', ref('RunStep')) },
    errors: [403, 404],
  },
  getApiAgentV6RunAgentRunId: {
    method: 'GET',
    path: '/api/agent/v6/run/:agentRunId',
    tag: 'agents',
    summary: 'An agent run',
    params: { agentRunId: hashParam('agent run id', 'agentRunId', EXAMPLE_IDS.agentRun) },
    ok: { schema: ref('RunRecord') },
    errors: [403, 404],
  },
  getApiAgentV6ByStatusStatus: {
    method: 'GET',
    path: '/api/agent/v6/by-status/:status',
    tag: 'agents',
    summary: 'Runs in a status, oldest first (the queue miners poll)',
    params: { status: oneOfParam('status', RUN_STATUSES, 'run status') },
    query: paging(100),
    ok: { schema: keyedList('status', str, 'runs', ref('RunRecord')) },
    errors: [403],
  },
  getApiAgentV6BySubmitterAddress: {
    method: 'GET',
    path: '/api/agent/v6/by-submitter/:address',
    tag: 'agents',
    summary: "A submitter's runs, newest first",
    params: { address: addressParam() },
    query: paging(100),
    ok: { schema: keyedList('submitter', address, 'runs', ref('RunRecord')) },
    errors: [403],
  },
  getApiAgentV6ByMinerAddress: {
    method: 'GET',
    path: '/api/agent/v6/by-miner/:address',
    tag: 'agents',
    summary: "A miner's runs, newest first",
    params: { address: addressParam() },
    query: paging(100),
    ok: { schema: keyedList('miner', address, 'runs', ref('RunRecord')) },
    errors: [403],
  },
  getApiAgentV6ChatConversationIdTurns: {
    method: 'GET',
    path: '/api/agent/v6/chat/:conversationId/turns',
    tag: 'agents',
    summary: "A conversation's latest turns (offset: skip that many of the latest), in chronological order",
    params: { conversationId: hashParam('conversation id', 'conversationId', EXAMPLE_IDS.conversation) },
    // `offset` is read once the conversation is known (an unknown one is 404 whatever the offset).
    query: { limit: limit(1000, 200), offset: lazy(offset) },
    ok: { schema: keyedList('conversationId', hash, 'turns', ref('Turn')) },
    errors: [403, 404],
  },
  getApiAgentV6ChatConversationId: {
    method: 'GET',
    path: '/api/agent/v6/chat/:conversationId',
    tag: 'agents',
    summary: 'A conversation',
    params: { conversationId: hashParam('conversation id', 'conversationId', EXAMPLE_IDS.conversation) },
    ok: { schema: ref('Conversation') },
    errors: [403, 404],
  },
  getApiAgentV6ChatByAuthorAddress: {
    method: 'GET',
    path: '/api/agent/v6/chat-by-author/:address',
    tag: 'agents',
    summary: 'The conversations an address wrote in, by its first turn in each',
    params: { address: addressParam() },
    query: paging(100),
    ok: { schema: keyedList('author', address, 'conversationIds', hash) },
    errors: [403],
  },
});
