/**
 * A consistent export of the block log: genesis, head and every block 0..head read from one
 * explicit LevelDB snapshot, so a node appending or reorganising blocks meanwhile changes nothing
 * in what is read. Used by `ombra snapshot export` on a stopped data dir and by the admin socket
 * of a running node.
 */
import { heightKey } from '../../core/encoding.ts';
import type { Genesis } from '../../core/genesis.ts';
import type { Head } from './blockReads.ts';
import type { ChainStore } from './chainStore.ts';

/** A fault of the log found while exporting it (a gap, a short log). */
export class SnapshotFault extends Error {}

/** An open snapshot of the log: its head and genesis, and its lines (call `lines` once). */
export interface SnapshotView {
  head: Head;
  genesis: Genesis;
  /** Line 1 `{"genesis": ...}`, then every block 0..head as its stored JSON, one per line. */
  lines(onBlock?: (blocks: number) => void): AsyncGenerator<string>;
  /** Releases the snapshot (also done when `lines` ends). */
  close(): Promise<void>;
}

/**
 * Opens a snapshot of `store`'s log. `genesisOf` maps the stored genesis to the one exported
 * (e.g. with fork-height overrides applied).
 */
export async function openSnapshotView(store: ChainStore, genesisOf: (g: Genesis) => Genesis = (g) => g): Promise<SnapshotView> {
  const snapshot = store.db.snapshot();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await snapshot.close();
  };
  try {
    const head = (await store.meta.get('head', { snapshot })) as Head | undefined;
    const stored = (await store.meta.get('genesis', { snapshot })) as Genesis | undefined;
    if (!head || !stored) throw new SnapshotFault('the data dir has no chain: no genesis or head');
    const genesis = genesisOf(stored);
    const top = head.index;
    async function* lines(onBlock?: (blocks: number) => void): AsyncGenerator<string> {
      try {
        yield `${JSON.stringify({ genesis })}\n`;
        let expected = 0;
        const entries = store.blocks.iterator({ gte: heightKey(0), lte: heightKey(top), valueEncoding: 'utf8', snapshot });
        // Keys are the heights: a gap shows as a key that is not the next height, without parsing a block.
        for await (const [key, text] of entries) {
          if (key !== heightKey(expected)) throw new SnapshotFault(`block log is missing block ${expected} (found ${Number(key)})`);
          expected++;
          onBlock?.(expected);
          yield `${text}\n`;
        }
        if (expected !== top + 1) throw new SnapshotFault(`block log ends at ${expected - 1}, before its head ${top}`);
      } finally {
        await close();
      }
    }
    return { head, genesis, lines, close };
  } catch (e) {
    await close();
    throw e;
  }
}
