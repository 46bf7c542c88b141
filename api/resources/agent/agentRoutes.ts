/**
 * /api/agent/v6 (sixth fork; 403 FORK_NOT_ACTIVE before it). Run record, steps, runs by status
 * (oldest first: the queue miners poll), by submitter and by miner (newest first), conversations,
 * turns (the latest `limit`, default 200, at most 1000, in chronological order) and an author's
 * conversations (in order of the author's first turn in each). List `limit`s default to 30, at
 * most 100, and every list takes `offset` (turns: skip that many of the latest); every `count`
 * is the number of items in that answer.
 */
import { Hono } from 'hono';
import { AGENT_ENDPOINTS as E } from './agentEndpoints.ts';
import { resource } from '../../endpoints/endpoint.ts';
import type { ApiDeps } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { forkGate } from '../../forkGate.ts';

/** Agent v6 routes. */
export function agentRoutes({ chain, queries }: ApiDeps): Hono {
  const q = queries.agents;
  const app = new Hono();
  app.use('/api/agent/v6/*', forkGate(chain, 6, 'agent runs and chat'));

  return resource(
    E,
    {
      getApiAgentV6RunAgentRunIdSteps: async (c, { params: { agentRunId: id } }) => {
        if (!(await q.hasRun(id))) notFound(`agent run ${id}`);
        const steps = await q.steps(id);
        return c.json({ agentRunId: id, count: steps.length, steps });
      },
      getApiAgentV6RunAgentRunId: async (c, { params: { agentRunId: id } }) => {
        return c.json((await q.run(id)) ?? notFound(`agent run ${id}`));
      },
      getApiAgentV6ByStatusStatus: async (c, { params: { status }, query: { limit, offset } }) => {
        const runs = await q.runsBy('status', status, limit, offset, true);
        return c.json({ status, count: runs.length, runs });
      },
      getApiAgentV6BySubmitterAddress: async (c, { params: { address: submitter }, query: { limit, offset } }) => {
        const runs = await q.runsBy('submitter', submitter, limit, offset, false);
        return c.json({ submitter, count: runs.length, runs });
      },
      getApiAgentV6ByMinerAddress: async (c, { params: { address: miner }, query: { limit, offset } }) => {
        const runs = await q.runsBy('miner', miner, limit, offset, false);
        return c.json({ miner, count: runs.length, runs });
      },
      getApiAgentV6ChatConversationIdTurns: async (c, { params: { conversationId: id }, query }) => {
        if (!(await q.conversation(id))) notFound(`conversation ${id}`);
        const turns = await q.turns(id, query.limit, E.getApiAgentV6ChatConversationIdTurns.query.offset.parse(query.offset));
        return c.json({ conversationId: id, count: turns.length, turns });
      },
      getApiAgentV6ChatConversationId: async (c, { params: { conversationId: id } }) => {
        return c.json((await q.conversation(id)) ?? notFound(`conversation ${id}`));
      },
      getApiAgentV6ChatByAuthorAddress: async (c, { params: { address: author }, query: { limit, offset } }) => {
        const conversationIds = await q.conversationsOf(author, limit, offset);
        return c.json({ author, count: conversationIds.length, conversationIds });
      },
    },
    { app },
  );
}
