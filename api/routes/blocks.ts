/** Block reads under /api/chain: by height, by hash, pages of summaries, ranges of full blocks. */
import { Hono } from 'hono';
import type { Block } from '../../core/block.ts';
import { ChainError } from '../../core/errors.ts';
import type { ApiDeps } from '../context.ts';
import { notFound } from '../errors.ts';
import { jsonAnswer } from '../jsonAnswer.ts';
import { BLOCK_ENDPOINTS as E, MAX_BLOCKS_RANGE, MAX_FULL_RANGE } from '../endpoints/blocks.ts';
import { serve } from '../endpoints/endpoint.ts';
import { parseHeight } from '../endpoints/params.ts';

/** A block summary as lists show it. */
export function summary(b: Block) {
  return { index: b.index, hash: b.hash, txCount: b.transactions.length, timestamp: b.timestamp, proposer: b.proposer };
}

/** Parses `from`/`to` into an inclusive range of at most `max` blocks. */
function range(fromS: string | undefined, toS: string | undefined, height: number, max: number): { from: number; to: number } {
  if (fromS === undefined && toS === undefined) throw new ChainError('INVALID_PARAMS', 'from and to are required');
  // Without `to`, a range starting past the head is simply empty.
  const to =
    toS === undefined
      ? Math.max(parseHeight(fromS, 'from'), Math.min(height, parseHeight(fromS, 'from') + max - 1))
      : parseHeight(toS, 'to');
  const from = fromS === undefined ? Math.max(0, to - max + 1) : parseHeight(fromS, 'from');
  if (from > to) throw new ChainError('INVALID_PARAMS', 'from must not be after to');
  if (to - from + 1 > max) throw new ChainError('INVALID_PARAMS', `range is at most ${max} blocks`);
  return { from, to };
}

/** Block routes. */
export function blockRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();

  serve(app, E.getApiChainGenesis, async (c) => c.json((await queries.chain.block(0))!));

  serve(app, E.getApiChainBlockHashHash, (c, { params: { hash } }) => {
    const hit = queries.chain.cachedBlockJsonByHash(hash);
    if (hit !== undefined) return jsonAnswer(c, hit);
    return queries.chain.blockJsonByHash(hash).then((json) => jsonAnswer(c, json ?? notFound('block')));
  });

  serve(app, E.getApiChainBlockIndex, (c, { params: { index: raw } }) => {
    // A well-formed integer outside 0..height is "not found", as the spec says; junk is 400.
    if (/^-[0-9]+$/.test(raw)) notFound(`block ${raw}`);
    if (/^[0-9]{16,}$/.test(raw)) notFound('block');
    const index = parseHeight(raw);
    // A cached block answers synchronously (no promise between the socket and the answer).
    const hit = queries.chain.cachedBlockJson(index);
    if (hit !== undefined) return jsonAnswer(c, hit);
    return queries.chain.blockJson(index).then((json) => jsonAnswer(c, json ?? notFound(`block ${index}`)));
  });

  serve(app, E.getApiChainBlocks, async (c, { query: q }) => {
    const height = queries.chain.height();
    if (q.from !== undefined || q.to !== undefined) {
      const { from, to } = range(q.from, q.to, height, MAX_BLOCKS_RANGE);
      const blocks = await queries.chain.blocks(from, to);
      return c.json({ from, to, count: blocks.length, blocks });
    }
    // Only this branch reads the page: with from/to, limit and offset are ignored.
    const limit = E.getApiChainBlocks.query.limit.parse(q.limit);
    const offset = E.getApiChainBlocks.query.offset.parse(q.offset);
    const top = height - offset;
    const blocks = top < 0 || limit === 0 ? [] : (await queries.chain.blocks(Math.max(0, top - limit + 1), top)).reverse();
    return c.json({ blocks: blocks.map(summary), total: height + 1 });
  });

  serve(app, E.getApiChainBlocksFull, async (c, { query: q }) => {
    const { from, to } = range(q.from, q.to, queries.chain.height(), MAX_FULL_RANGE);
    const blocks = await queries.chain.blocks(from, to);
    return c.json({ from, to, count: blocks.length, blocks });
  });

  return app;
}
