/**
 * Where the mirror and the node's chain meet: the highest height at which both hold the same block
 * (the cursor itself, unless the node reorganised away from it). Compared by hash, the node's
 * taken from its block summaries (100 a request, newest first), so the usual answer costs one
 * small read rather than a range of full blocks.
 */
import type { OmbraClient } from '../client/reads.ts';
import type { Cursor, SinkDb } from './sinkDb.ts';
import { SinkError } from './sinkError.ts';

/** Block summaries a page answers at most. */
const PAGE = 100;

/**
 * The node's block hashes `from..to` by height (at most PAGE of them). Summaries are paged from
 * the head down, so a head that moved between the reads shifts the page: read again from it.
 */
async function nodeHashes(client: OmbraClient, from: number, to: number): Promise<Map<number, string>> {
  let head = (await client.height()).height;
  for (let attempt = 0; ; attempt++) {
    const top = Math.min(to, head);
    const page = await client.blocks({ limit: Math.min(PAGE, top - from + 1), offset: head - top });
    const now = page.total - 1;
    if (now === head || attempt === 2) return new Map(page.blocks.map((b) => [b.index, b.hash]));
    head = now;
  }
}

/** The highest height where `db`'s mirror (at `cursor`) and the node hold the same block. */
export async function commonAncestor(client: OmbraClient, db: SinkDb, cursor: Cursor, schema: string): Promise<number> {
  const nodeHead = (await client.height()).height;
  if (nodeHead < cursor.height) {
    // A node behind the mirror on the same chain (a follower catching up, a failover): wait for
    // it rather than delete blocks it will have again.
    const theirs = (await nodeHashes(client, nodeHead, nodeHead)).get(nodeHead);
    if ((await db.blockHashes(nodeHead, nodeHead)).get(nodeHead) === theirs)
      throw new SinkError('NODE_BEHIND', `the node's head ${nodeHead} is behind the mirror's ${cursor.height}: waiting for it`);
  }
  let top = Math.min(cursor.height, nodeHead);
  while (top >= 0) {
    const from = Math.max(0, top - PAGE + 1);
    const mine = await db.blockHashes(from, top);
    const theirs = await nodeHashes(client, from, top);
    for (let h = top; h >= from; h--) if (mine.get(h) !== undefined && mine.get(h) === theirs.get(h)) return h;
    if (from === 0) break;
    top = from - 1;
  }
  throw new SinkError('OTHER_CHAIN', `no block of schema ${schema} is on the node's chain`);
}
