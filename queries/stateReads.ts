/**
 * Reads of consensus accounts and records for queries. The state's accounts and records are a
 * bounded cache (core/recordCache.ts): what it cannot answer is read from the consensus state's rows. Rows a
 * query reads stay in the query's own overlay; only the node's writer fills the state's cache.
 */
import { ACCOUNT_ROW_PREFIX, decodeAccount, type StoredAccount } from '../core/accountRow.ts';
import { parseRecordKey } from '../core/recordCache.ts';
import type { RecordDef } from '../core/record.ts';
import { type Account, emptyAccount } from '../core/state.ts';
import { StateOverlay } from '../core/stateOverlay.ts';
import type { StateReader } from '../core/tx/handler.ts';
import type { ReadPorts } from '../node/ports.ts';
import { accountsProjection } from '../projections/accounts.ts';

/**
 * Runs `read` over the consensus state at the head, reading from disk the records the state's
 * cache cannot answer and running it again with them, until it needs none it lacks.
 */
export async function readState<T>(ports: Pick<ReadPorts, 'chain' | 'models'>, read: (s: StateReader) => T): Promise<T> {
  const loaded = new Map<string, unknown>();
  for (;;) {
    const view = new StateOverlay(ports.chain.state());
    for (const [key, value] of loaded) {
      // Every key a state read misses is an account's or a record's key.
      if (key.startsWith(ACCOUNT_ROW_PREFIX)) {
        const address = key.slice(ACCOUNT_ROW_PREFIX.length);
        view.accounts.set(address, value === undefined ? emptyAccount() : decodeAccount(value as StoredAccount));
        continue;
      }
      const parsed = parseRecordKey(key);
      if (!parsed) continue;
      const { rec, id } = parsed;
      if (value === undefined) view.remove(rec, id);
      else view.put(rec, id, value);
    }
    let out: { value: T } | undefined;
    try {
      out = { value: read(view) };
    } catch (e) {
      if (view.missing().size === 0) throw e;
    }
    const misses = [...view.missing()];
    // No misses: the read ran to its end (a read that threw with none was thrown above).
    if (out && misses.length === 0) return out.value;
    const values = await (await ports.models.readable(accountsProjection)).getMany(misses);
    for (const [i, key] of misses.entries()) loaded.set(key, values[i]);
  }
}

/** One record by id: from the state's cache, else its row (undefined when there is none). */
export function readRecord<T>(ports: Pick<ReadPorts, 'chain' | 'models'>, rec: RecordDef<string, T>, id: string): Promise<T | undefined> {
  return readState(ports, (s) => s.get(rec, id));
}

/** Records by id, in order (undefined where there is none), with one read of the rows. */
export async function readRecords<T>(
  ports: Pick<ReadPorts, 'chain' | 'models'>,
  rec: RecordDef<string, T>,
  ids: readonly string[],
): Promise<(T | undefined)[]> {
  return readState(ports, (s) => ids.map((id) => s.get(rec, id)));
}

/** One account (an address never seen is an empty account): from the state's cache, else its row. */
export function readAccount(ports: Pick<ReadPorts, 'chain' | 'models'>, address: string): Promise<Readonly<Account>> {
  return readState(ports, (s) => s.peek(address));
}
