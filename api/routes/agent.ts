/**
 * /api/agent/v6 (sixth fork; 403 FORK_NOT_ACTIVE before it). Run record, steps, runs by status
 * (oldest first: the queue miners poll), by submitter and by miner (newest first), conversations,
 * turns (the latest `limit`, default 200, at most 1000, in chronological order) and an author's
 * conversations (in order of the author's first turn in each). List `limit`s default to 30, at
 * most 100, and every list takes `offset` (turns: skip that many of the latest); every `count`
 * is the number of items in that answer.
 */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import { RUN_STATUSES } from '../../projections/agentRuns.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { forkGate } from '../forkGate.ts';
import { parseAddress, parseHash, parseLimit, parseOffset } from '../params.ts';

/** Agent v6 routes. */
export function agentRoutes({ chain, queries }: ApiDeps): Hono {
  const q = queries.agents;
  const app = new Hono();
  app.use('*', forkGate(chain, 6, 'agent runs and chat'));

  app.get('/run/:agentRunId/steps', async (c) => {
    const id = parseHash(c.req.param('agentRunId'), 'agentRunId');
    if (!(await q.hasRun(id))) notFound(`agent run ${id}`);
    const steps = await q.steps(id);
    return c.json({ agentRunId: id, count: steps.length, steps });
  });

  app.get('/run/:agentRunId', async (c) => {
    const id = parseHash(c.req.param('agentRunId'), 'agentRunId');
    return c.json((await q.run(id)) ?? notFound(`agent run ${id}`));
  });

  app.get('/by-status/:status', async (c) => {
    const status = c.req.param('status');
    if (!(RUN_STATUSES as readonly string[]).includes(status))
      throw new ChainError('INVALID_PARAMS', `status must be one of ${RUN_STATUSES.join(', ')}`);
    const runs = await q.runsBy('status', status, parseLimit(c.req.query('limit')), parseOffset(c.req.query('offset')), true);
    return c.json({ status, count: runs.length, runs });
  });

  app.get('/by-submitter/:address', async (c) => {
    const submitter = parseAddress(c.req.param('address'));
    const runs = await q.runsBy('submitter', submitter, parseLimit(c.req.query('limit')), parseOffset(c.req.query('offset')), false);
    return c.json({ submitter, count: runs.length, runs });
  });

  app.get('/by-miner/:address', async (c) => {
    const miner = parseAddress(c.req.param('address'));
    const runs = await q.runsBy('miner', miner, parseLimit(c.req.query('limit')), parseOffset(c.req.query('offset')), false);
    return c.json({ miner, count: runs.length, runs });
  });

  app.get('/chat/:conversationId/turns', async (c) => {
    const id = parseHash(c.req.param('conversationId'), 'conversationId');
    const limit = parseLimit(c.req.query('limit'), 1000, 200);
    if (!(await q.conversation(id))) notFound(`conversation ${id}`);
    const turns = await q.turns(id, limit, parseOffset(c.req.query('offset')));
    return c.json({ conversationId: id, count: turns.length, turns });
  });

  app.get('/chat/:conversationId', async (c) => {
    const id = parseHash(c.req.param('conversationId'), 'conversationId');
    return c.json((await q.conversation(id)) ?? notFound(`conversation ${id}`));
  });

  app.get('/chat-by-author/:address', async (c) => {
    const author = parseAddress(c.req.param('address'));
    const conversationIds = await q.conversationsOf(author, parseLimit(c.req.query('limit')), parseOffset(c.req.query('offset')));
    return c.json({ author, count: conversationIds.length, conversationIds });
  });

  return app;
}
