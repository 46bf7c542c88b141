/**
 * One atomic write across the store's sublevels, built by hand on the root (ChainStore.write).
 */
import type { Level } from 'level';

/** Values already JSON text: stored as they are. */
const UTF8 = { valueEncoding: 'utf8' } as const;

/** One write of a batch: into the sublevel it names; `text` is the value's JSON when already made. */
export type RowWrite = { type: 'put' | 'del'; sublevel: unknown; key: string; value?: unknown; text?: string };

/**
 * Writes ops across sublevels in one atomic batch. Each op's key is prefixed (`prefixOf` its
 * sublevel) and its value JSON-encoded here, into one chained batch on the root: the same bytes
 * the sublevels would write, without abstract-level's per-op normalisation and the native array
 * batch's property reads (~2 us a transaction in a replay, docs/replay.md).
 * A key written more than once in the batch is written once, with its last op: LevelDB applies
 * a batch in order, so the earlier ones would be overwritten within the same atomic write
 * anyway (in catch-up the same accounts and supply rows come once a block for 256 blocks).
 * `dedupe: false` writes every op as given (the runner's rows come once a key already).
 */
export async function writeRows(
  db: Level<string, unknown>,
  prefixOf: (sublevel: unknown) => string,
  ops: readonly RowWrite[],
  opts: { sync?: boolean; dedupe?: boolean } = {},
): Promise<void> {
  const keys: string[] = new Array(ops.length);
  const last = opts.dedupe === false ? null : new Map<string, number>();
  for (let i = 0; i < ops.length; i++) {
    const key = prefixOf(ops[i].sublevel) + ops[i].key;
    keys[i] = key;
    last?.set(key, i);
  }
  const batch = db.batch();
  for (let i = 0; i < ops.length; i++) {
    if (last !== null && last.get(keys[i]) !== i) continue;
    const op = ops[i];
    // `text`: the value's JSON already made (blocks: the bytes the verified digest covers).
    if (op.type === 'put') batch.put(keys[i], op.text ?? JSON.stringify(op.value), UTF8);
    else batch.del(keys[i]);
  }
  await batch.write({ sync: opts.sync ?? false });
}
