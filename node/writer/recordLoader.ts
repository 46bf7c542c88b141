/**
 * The load step of the bounded record cache (core/recordCache.ts): a pure step (applyBlock,
 * buildBlock, admission, reorg validation) that read records the cache could not answer throws
 * RecordsNotLoaded; the writer reads those rows with one getMany and runs the step again. Pure
 * steps make the retry exact; only the writer calls this, inside its one-at-a-time queue.
 */
import { accountKey } from '../../core/accountRow.ts';
import { knownAbsentAccount, loadRecords, RecordsNotLoaded } from '../../core/recordCache.ts';
import type { ChainState } from '../../core/state.ts';
import { isAddressAnyCase } from '../../core/address.ts';
import { partyFieldsOf } from '../../core/tx/registry.ts';

/** Reads rows of the accounts read model by key, as every block folded so far left them. */
export type RowReader = (keys: string[]) => Promise<unknown[]>;

/**
 * Loads `keys` into `state`'s cache through `read` (the accounts read model's rows at the state's
 * height: rows folded but not yet written included).
 */
async function loadInto(state: ChainState, keys: readonly string[], read: RowReader): Promise<void> {
  loadRecords(state, keys, await read([...keys]));
}

/**
 * Runs `attempt` until it needs no record it could not read, loading what each try named into
 * `state`. A try that names again exactly what was just loaded is a bug (the cache refused the
 * rows), not a fault of the input: it is thrown as an Error.
 */
export async function withLoaded<T>(state: ChainState, read: RowReader, attempt: () => T): Promise<T> {
  return withLoadedNow(state, read, attempt);
}

/**
 * `withLoaded` answering at once when the first try read nothing missing (a catch-up's near-empty
 * blocks: no promise made, no turn waited), a promise otherwise.
 */
export function withLoadedNow<T>(state: ChainState, read: RowReader, attempt: () => T): T | Promise<T> {
  try {
    return attempt();
  } catch (e) {
    if (!(e instanceof RecordsNotLoaded)) throw e;
    return retryLoaded(state, read, attempt, e);
  }
}

/** Loads what `missed` named and tries again, until a try names nothing missing. */
async function retryLoaded<T>(state: ChainState, read: RowReader, attempt: () => T, missed: RecordsNotLoaded): Promise<T> {
  let e = missed;
  let last = '';
  for (;;) {
    const named = e.keys.join('\n');
    if (named === last) throw new Error(`record cache did not take the rows it loaded: ${e.message}`);
    last = named;
    await loadInto(state, e.keys, read);
    try {
      return attempt();
    } catch (again) {
      if (!(again instanceof RecordsNotLoaded)) throw again;
      e = again;
    }
  }
}

/**
 * Loads the accounts `raw`'s proposer and transactions name (senders and every top-level field
 * their schemas name as an address: recipients, other parties) that `state`'s cache cannot answer, with one read, before
 * the block is applied: a block of transfers to new addresses then costs no retry (no second pass
 * of hashing and checks). Only a saving, never trusted: what it misses the retry still loads.
 * Undefined when the cache answers every account (nothing to wait for), else the read's promise.
 */
export function prefetchAccounts(state: ChainState, raw: unknown, read: RowReader): Promise<void> | undefined {
  if (!state.cache) return;
  const b = raw as { proposer?: unknown; transactions?: unknown } | null;
  if (!b || !Array.isArray(b.transactions)) return;
  const keys = new Set<string>();
  // Each address once: a busy sender or recipient is named by many of the block's transactions.
  const seen = new Set<unknown>();
  const want = (value: unknown) => {
    if (seen.has(value)) return;
    seen.add(value);
    if (!isAddressAnyCase(value)) return;
    // The state form of an address is lower-case.
    const address = value.toLowerCase();
    if (!state.accounts.has(address) && !knownAbsentAccount(state, address)) keys.add(accountKey(address));
  };
  want(b.proposer);
  // The sender and the fields its type's schema names as addresses (core/tx/registry.ts), not
  // every value tested as one: the same accounts for a block that will apply.
  for (const tx of b.transactions) {
    if (!tx || typeof tx !== 'object') continue;
    want(Reflect.get(tx, 'from'));
    for (const name of partyFieldsOf(Reflect.get(tx, 'type'))) want(Reflect.get(tx, name));
  }
  return keys.size > 0 ? loadInto(state, [...keys], read) : undefined;
}
