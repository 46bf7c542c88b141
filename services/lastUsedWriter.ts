/**
 * API keys' `lastUsedAt`, written in batches: a use is marked in memory and written with the next
 * batch, at most one write per key per `flushMs`, never once per request (the key store,
 * services/apiKeys.ts, sets the time on its in-memory record and marks the key here).
 */
import type { ChainStore } from '../node/store/chainStore.ts';
import type { ApiKeyRecord } from './apiKeyFormat.ts';

/** Writes the marked keys' records in one batch, `flushMs` after the first mark of a batch. */
export class LastUsedWriter {
  private readonly rows: ReturnType<ChainStore['sublevel']>;
  private readonly recordOf: (id: string) => ApiKeyRecord | undefined;
  private readonly flushMs: number;
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  /** `recordOf` answers a key's record as it now is, undefined once the key is revoked. */
  constructor(rows: ReturnType<ChainStore['sublevel']>, recordOf: (id: string) => ApiKeyRecord | undefined, flushMs: number) {
    this.rows = rows;
    this.recordOf = recordOf;
    this.flushMs = flushMs;
  }

  /** Marks key `id` used: its record is written with the next batch. */
  mark(id: string): void {
    this.dirty.add(id);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush().catch(() => undefined);
      }, this.flushMs);
      this.timer.unref();
    }
  }

  /** Unmarks key `id` (it is being deleted). */
  forget(id: string): void {
    this.dirty.delete(id);
  }

  /** Writes the marked records in one batch, after any batch in flight. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.writeDirty());
    return this.flushing;
  }

  /** Resolves once the batch in flight, if any, has landed or failed. */
  settled(): Promise<void> {
    return this.flushing.catch(() => undefined);
  }

  /** Stops the timer and writes what is still marked. */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async writeDirty(): Promise<void> {
    if (this.dirty.size === 0) return;
    const ops = [];
    for (const id of this.dirty) {
      const r = this.recordOf(id);
      if (r) ops.push({ type: 'put' as const, key: id, value: r });
    }
    this.dirty.clear();
    if (ops.length) await this.rows.batch(ops);
  }
}
