/**
 * The load step of the bounded record cache (core/recordCache.ts): a pure step (applyBlock,
 * buildBlock, admission, reorg validation) that read records the cache could not answer throws
 * RecordsNotLoaded; the writer reads those rows with one getMany and runs the step again. Pure
 * steps make the retry exact; only the writer calls this, inside its one-at-a-time queue.
 */
import { loadRecords, RecordsNotLoaded } from '../core/recordCache.ts';
import type { ChainState } from '../core/state.ts';
import type { Rows } from '../projections/store.ts';

/**
 * Loads `keys` into `state`'s cache from `rows()` (the accounts read model's rows, flushed to the
 * state's height: the caller's `rows` must wait for pending writes).
 */
async function loadInto(state: ChainState, keys: readonly string[], rows: () => Promise<Rows>): Promise<void> {
  const values = await (await rows()).getMany([...keys]);
  loadRecords(state, keys, values);
}

/**
 * Runs `attempt` until it needs no record it could not read, loading what each try named into
 * `state`. A try that names again exactly what was just loaded is a bug (the cache refused the
 * rows), not a fault of the input: it is thrown as an Error.
 */
export async function withLoaded<T>(state: ChainState, rows: () => Promise<Rows>, attempt: () => T): Promise<T> {
  let last = '';
  for (;;) {
    try {
      return attempt();
    } catch (e) {
      if (!(e instanceof RecordsNotLoaded)) throw e;
      const named = e.keys.join('\n');
      if (named === last) throw new Error(`record cache did not take the rows it loaded: ${e.message}`);
      last = named;
      await loadInto(state, e.keys, rows);
    }
  }
}
