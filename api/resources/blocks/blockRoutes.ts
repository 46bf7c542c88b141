/**
 * The blocks resource's router: every definition of ./blockEndpoints.ts served by its handler.
 * Block reads under /api/chain: by height, by hash, pages of summaries, ranges of full blocks.
 * A range (`blocks?from=&to=`, `blocks-full`) is streamed block by block from the stored JSON as
 * the socket drains, `{from, to, blocks, count}`, and carries at most `maxRangeBytes` of blocks
 * (16 MiB by default, as a sync answer; always at least one): when it stops short of `to`, `next`
 * is the height to ask from. One request holds one block in memory, whatever the range.
 * Transactions: submit (both request forms), read by hash, and every one newest first. The mempool: pending
 * transactions, oldest first, at /api/mempool and /api/chain/mempool.
 */
import type { Context, Hono } from 'hono';
import type { Block } from '../../../core/block.ts';
import { ChainError, present } from '../../../core/errors.ts';
import { blockSummary } from '../../../queries/blockReads.ts';
import type { Components } from '../../../queries/schemas/records.ts';
import type { JsonPieces } from '../../../queries/schemas/shapes.ts';
import type { ApiDeps } from '../../context.ts';
import { type Handler, resource } from '../../endpoints/endpoint.ts';
import { parseHeight } from '../../endpoints/params.ts';
import { notFound } from '../../errors.ts';
import { type JsonResponse, jsonAnswer, jsonStream } from '../../jsonAnswer.ts';
import { type SubmitPolicy, submitFrom } from '../../submit.ts';
import { BLOCK_ENDPOINTS as E, MAX_BLOCKS_RANGE, MAX_FULL_RANGE } from './blockEndpoints.ts';

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

/**
 * The JSON of the range from..to out of `blocks` (stored JSON, in order from `from`): at most
 * `maxBytes` of blocks, at least one; `next` when it stops before the last block there is.
 */
async function* rangeJson(
  blocks: AsyncGenerator<Uint8Array>,
  from: number,
  to: number,
  maxBytes: number,
): JsonPieces<Components['BlockRange']> {
  yield `{"from":${from},"to":${to},"blocks":[`;
  let count = 0;
  let bytes = 0;
  let next = '';
  try {
    for await (const json of blocks) {
      const size = json.byteLength;
      if (count > 0 && bytes + size > maxBytes) {
        next = `,"next":${from + count}`;
        break;
      }
      // Apart: the block's stored bytes are written as they are, never copied beside the separator.
      if (count > 0) yield ',';
      yield json;
      count++;
      bytes += size;
    }
  } finally {
    await blocks.return(undefined);
  }
  yield `],"count":${count}${next}}`;
}

/** The blocks resource; a range answer carries at most `maxRangeBytes` of blocks. */
export function blockRoutes(deps: ApiDeps, policy: SubmitPolicy, maxRangeBytes = 16 * 1024 * 1024): Hono {
  const { queries } = deps;
  const answerRange = (c: Context, from: number, to: number) =>
    jsonStream(c, rangeJson(queries.chain.blocksJson(from, to), from, to, maxRangeBytes));

  // A cached block answers synchronously (no promise between the socket and the answer).
  const blockAt = (c: Context, index: number): JsonResponse<Block> | Promise<JsonResponse<Block>> => {
    const hit = queries.chain.cachedBlockJson(index);
    if (hit !== undefined) return jsonAnswer(c, hit);
    return queries.chain.blockJson(index).then((json) => jsonAnswer(c, json ?? notFound(`block ${index}`)));
  };

  const mempoolPage: Handler<typeof E.getApiMempool> = (c, { query: { limit, offset } }) => {
    const all = queries.chain.pendingTxs();
    const pending = all.slice(offset, offset + limit).map((t) => ({
      type: t.type,
      from: t.from,
      ...(typeof t.to === 'string' ? { to: t.to } : {}),
      ...(typeof t.amount === 'string' ? { amount: t.amount } : {}),
      ...(typeof t.fee === 'string' ? { fee: t.fee } : {}),
      nonce: t.nonce,
      hash: t.hash,
    }));
    return c.json({ total: all.length, pending });
  };

  return resource(E, {
    getApiChainGenesis: async (c) => c.json(present(await queries.chain.block(0), 'block 0')),

    getApiChainBlockHashHash: (c, { params: { hash } }) => {
      const hit = queries.chain.cachedBlockJsonByHash(hash);
      if (hit !== undefined) return jsonAnswer(c, hit);
      return queries.chain.blockJsonByHash(hash).then((json) => jsonAnswer(c, json ?? notFound('block')));
    },

    getApiChainBlockLatest: (c) => blockAt(c, queries.chain.height()),

    getApiChainBlockIndex: (c, { params: { index: raw } }) => {
      // A well-formed integer outside 0..height is "not found", as the spec says; junk is 400.
      if (/^-[0-9]+$/.test(raw)) notFound(`block ${raw}`);
      if (/^[0-9]{16,}$/.test(raw)) notFound('block');
      return blockAt(c, parseHeight(raw));
    },

    getApiChainBlocks: async (c, { query: q }) => {
      const height = queries.chain.height();
      if (q.from !== undefined || q.to !== undefined) {
        const { from, to } = range(q.from, q.to, height, MAX_BLOCKS_RANGE);
        return answerRange(c, from, to);
      }
      // Only this branch reads the page: with from/to, limit and offset are ignored.
      const limit = E.getApiChainBlocks.query.limit.parse(q.limit);
      const offset = E.getApiChainBlocks.query.offset.parse(q.offset);
      const top = height - offset;
      const blocks = top < 0 || limit === 0 ? [] : (await queries.chain.blocks(Math.max(0, top - limit + 1), top)).reverse();
      return c.json({ blocks: blocks.map(blockSummary), total: height + 1 });
    },

    getApiChainBlockTimes: async (c, { query: { count } }) => {
      const height = queries.chain.height();
      const blocks = count === 0 || height < 0 ? [] : await queries.chain.blocks(Math.max(0, height - count + 1), height);
      return c.json({ blocks: blocks.map(blockSummary), height });
    },

    getApiChainBlocksFull: (c, { query: q }) => {
      const { from, to } = range(q.from, q.to, queries.chain.height(), MAX_FULL_RANGE);
      return answerRange(c, from, to);
    },

    postApiChainTx: async (c) => {
      const { tx, legacy } = await submitFrom(c, deps, policy);
      return c.json(legacy ? { ok: true as const, hash: tx.hash, txHash: tx.hash } : { ok: true as const, hash: tx.hash });
    },

    getApiChainTxHash: async (c, { params: { hash } }) => {
      const found = await queries.chain.txStatus(hash);
      if (!found) return notFound(`transaction ${hash}`);
      return found.status === 'confirmed'
        ? c.json({ ...found.tx, status: 'confirmed' as const })
        : c.json({ ...found.tx, status: 'pending' as const });
    },

    getApiChainTxs: async (c, { query: { offset, cursor, limit } }) => {
      if (cursor !== undefined && offset > 0) throw new ChainError('INVALID_PARAMS', 'give offset or cursor, not both');
      const page = await queries.chain.allTxs(limit, offset, cursor);
      return c.json({ count: page.txs.length, total: page.total, txs: page.txs, nextCursor: page.nextCursor });
    },

    getApiChainMempool: mempoolPage,
    getApiMempool: mempoolPage,
  });
}
