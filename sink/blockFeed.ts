/**
 * Full blocks from the node's range read (GET /api/chain/blocks-full: at most 500 blocks or 16 MiB
 * an answer, then `next`), one request ahead of the consumer so the node's encoding, the
 * transfer and the sink's folding overlap.
 */
import { OmbraUnreachable } from '../client/http.ts';
import type { OmbraClient } from '../client/reads.ts';
import type { Block } from '../core/block.ts';
import { SinkError } from './sinkError.ts';

/** Most blocks asked for in one range read (the node's limit). */
const RANGE = 500;

/** One range answer's blocks; `next` is the height to ask from, or absent at `to`. */
async function readRange(client: OmbraClient, from: number, to: number): Promise<{ blocks: Block[]; next: number }> {
  const ask = () => client.blocksRange(from, Math.min(to, from + RANGE - 1)) as unknown as Promise<{ blocks: Block[]; next?: number }>;
  // A kept-alive socket the node closed as the request went out fails at once: one retry on a new
  // one, before it counts as the node being away (and the sink backs off).
  const r = await ask().catch((e: unknown) => {
    if (e instanceof OmbraUnreachable) return ask();
    throw e;
  });
  const blocks = r.blocks ?? [];
  if (blocks.length === 0) throw new SinkError('NODE_INCONSISTENT', `the node answered no blocks for ${from}..${to}`);
  blocks.forEach((b, i) => {
    if (b.index !== from + i) throw new SinkError('NODE_INCONSISTENT', `the node's range ${from}..${to} skips to block ${b.index}`);
  });
  return { blocks, next: r.next ?? from + blocks.length };
}

/** Blocks from..to in order, in the node's chunks, each chunk fetched while the previous one is used. */
export async function* blockFeed(client: OmbraClient, from: number, to: number): AsyncGenerator<Block[]> {
  if (from > to) return;
  let pending: Promise<{ blocks: Block[]; next: number }> | null = readRange(client, from, to);
  while (pending) {
    const got: { blocks: Block[]; next: number } = await pending;
    const { blocks, next } = got;
    pending = next <= to ? readRange(client, next, to) : null;
    // An abandoned prefetch must not surface as an unhandled rejection.
    pending?.catch(() => undefined);
    yield blocks;
  }
}
