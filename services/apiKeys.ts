/**
 * API keys: node-local data in the `local:keys` sublevel (never chain state).
 *
 * Format: `ombra_live_<40 hex>_<8 hex>`, the tail being the CRC-32 of everything before it, so a
 * mistyped or made-up key is refused without a database lookup. Only SHA-256 of the key is stored;
 * the key itself is shown once, at creation. Every active key is held in memory by its hash, so
 * checking a key costs one CRC, one hash and one map lookup. `lastUsedAt` is updated in memory
 * and written in batches (at most one write per key per `flushMs`), never once per request.
 *
 * Ownership: a key registered while presenting another key (X-API-Key) is owned by that key. A
 * caller sees and may revoke itself and the keys it owns; nothing else.
 */
import { ChainError } from '../core/errors.ts';
import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ChainStore } from '../node/chainStore.ts';

/** The recognisable prefix of a live key. */
export const KEY_PREFIX = 'ombra_live_';
const KEY_RE = /^ombra_live_([0-9a-f]{40})_([0-9a-f]{8})$/;

/** A stored key (no secret in it). */
export interface ApiKeyRecord {
  id: string;
  /** Hex SHA-256 of the key. */
  hash: string;
  tier: number;
  label: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** The key that registered this one, if any. */
  ownerId: string | null;
  /** Client IP that registered it ('operator' for `ombra keys create`). */
  createdBy: string;
}

/** What a listing shows. */
export interface ApiKeyView {
  id: string;
  label: string;
  tier: number;
  createdAt: number;
  lastUsedAt: number | null;
}

/** Key store options. */
export interface ApiKeyOptions {
  /** How often buffered lastUsedAt values are written (ms). */
  flushMs: number;
  /** Active keys one client IP may have registered. */
  maxKeysPerIp: number;
  /** Active keys registered while presenting one key (its derived keys). */
  maxKeysPerOwner: number;
  /** Active keys in all. */
  maxKeys: number;
  clock: () => number;
}

export const defaultApiKeyOptions: ApiKeyOptions = {
  flushMs: 10_000,
  maxKeysPerIp: 20,
  maxKeysPerOwner: 100,
  maxKeys: 100_000,
  clock: Date.now,
};

/** The checksum part of a key body. */
function checksum(body: string): string {
  return (crc32(body) >>> 0).toString(16).padStart(8, '0');
}

/** A fresh random key. */
export function generateKey(): string {
  const body = KEY_PREFIX + randomBytes(20).toString('hex');
  return `${body}_${checksum(body)}`;
}

/** True when `s` has the key format and a correct checksum (no lookup). */
export function wellFormedKey(s: string): boolean {
  const m = KEY_RE.exec(s);
  return m !== null && checksum(s.slice(0, s.length - 9)) === m[2];
}

/** Hex SHA-256 of a key. */
export function keyHash(key: string): string {
  return hash('sha256', key);
}

/** Outcome of checking a presented key. */
export type KeyCheck = { ok: true; record: ApiKeyRecord } | { ok: false; why: 'malformed' | 'unknown' };

/** The key store. */
export class ApiKeyStore {
  private readonly rows: ReturnType<ChainStore['sublevel']>;
  private readonly byHash = new Map<string, ApiKeyRecord>();
  private readonly byId = new Map<string, ApiKeyRecord>();
  private readonly dirty = new Set<string>();
  /** Presented key -> record, for keys already checked (skips the regex, CRC and hash). */
  private readonly seen = new Map<string, { ok: true; record: ApiKeyRecord }>();
  private readonly opts: ApiKeyOptions;
  private timer: NodeJS.Timeout | null = null;
  private loading: Promise<this> | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(store: ChainStore, options: Partial<ApiKeyOptions> = {}) {
    this.rows = store.sublevel('local:keys');
    this.opts = { ...defaultApiKeyOptions, ...options };
  }

  /** Lifecycle: loads the keys. */
  async start(): Promise<void> {
    await this.load();
  }

  /** Lifecycle: closes the store's key rows. */
  stop(): Promise<void> {
    return this.close();
  }

  /** Loads every active key into memory; call once before use. */
  load(): Promise<this> {
    this.loading ??= (async () => {
      for await (const v of this.rows.values()) {
        const r = v as ApiKeyRecord;
        this.byHash.set(r.hash, r);
        this.byId.set(r.id, r);
      }
      return this;
    })();
    return this.loading;
  }

  /** Issues a key; answers the record and the secret (shown once). */
  async create(input: {
    tier: number;
    label: string;
    ownerId?: string | null;
    createdBy: string;
  }): Promise<{ record: ApiKeyRecord; key: string }> {
    await this.load();
    // Caps answer 429: they bound how fast keys can be minted, not what a request may say.
    if (this.byId.size >= this.opts.maxKeys)
      throw new ChainError('RATE_LIMITED', `this node holds ${this.opts.maxKeys} active keys, the most it issues; try again later`);
    const owner = input.ownerId ?? null;
    if (owner !== null && this.countByOwner(owner) >= this.opts.maxKeysPerOwner)
      throw new ChainError(
        'RATE_LIMITED',
        `this key already registered ${this.opts.maxKeysPerOwner} active keys, the most one key may hold; revoke one first`,
      );
    const key = generateKey();
    const record: ApiKeyRecord = {
      id: `key_${randomBytes(8).toString('hex')}`,
      hash: keyHash(key),
      tier: input.tier,
      label: input.label,
      createdAt: this.opts.clock(),
      lastUsedAt: null,
      ownerId: input.ownerId ?? null,
      createdBy: input.createdBy,
    };
    await this.rows.put(record.id, record);
    this.byHash.set(record.hash, record);
    this.byId.set(record.id, record);
    return { record, key };
  }

  /**
   * The key whose rate-limit bucket `record` draws from: the root of its owner chain, so keys
   * registered with a key (and theirs) share its quota instead of multiplying it.
   */
  rootOf(record: ApiKeyRecord): ApiKeyRecord {
    let r = record;
    // Owners are created before the keys they own, so a chain cannot loop; the bound is a guard.
    for (let hops = 0; r.ownerId !== null && hops < 1000; hops++) {
      const owner = this.byId.get(r.ownerId);
      if (!owner) break;
      r = owner;
    }
    return r;
  }

  /** Active keys registered while presenting key `ownerId`. */
  countByOwner(ownerId: string): number {
    let n = 0;
    for (const r of this.byId.values()) if (r.ownerId === ownerId) n++;
    return n;
  }

  /** Active keys registered from `ip`. */
  countByIp(ip: string): number {
    let n = 0;
    for (const r of this.byId.values()) if (r.createdBy === ip) n++;
    return n;
  }

  /** Checks a presented key: the checksum first (no lookup), then the in-memory index. */
  check(key: string): KeyCheck {
    const hit = this.seen.get(key);
    // A revoked key has left byId: it fails at once even when it is in this cache.
    if (hit && this.byId.get(hit.record.id) === hit.record) return hit;
    if (key.length !== 60 || !wellFormedKey(key)) return { ok: false, why: 'malformed' };
    const record = this.byHash.get(keyHash(key));
    if (!record) return { ok: false, why: 'unknown' };
    if (this.seen.size >= 10_000) this.seen.clear();
    const ok = { ok: true as const, record };
    this.seen.set(key, ok);
    return ok;
  }

  /** Notes a use of a key; written with the next batch. */
  touch(record: ApiKeyRecord): void {
    record.lastUsedAt = this.opts.clock();
    this.dirty.add(record.id);
    if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush().catch(() => undefined);
      }, this.opts.flushMs);
      this.timer.unref();
    }
  }

  /** Writes buffered lastUsedAt values in one batch. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.writeDirty());
    return this.flushing;
  }

  private async writeDirty(): Promise<void> {
    if (this.dirty.size === 0) return;
    const ops = [];
    for (const id of this.dirty) {
      const r = this.byId.get(id);
      if (r) ops.push({ type: 'put' as const, key: id, value: r });
    }
    this.dirty.clear();
    if (ops.length) await this.rows.batch(ops);
  }

  /** A key by id. */
  get(id: string): ApiKeyRecord | undefined {
    return this.byId.get(id);
  }

  /** What `caller` may see: itself and the keys it owns, oldest first. */
  visibleTo(caller: ApiKeyRecord): ApiKeyRecord[] {
    return [...this.byId.values()]
      .filter((r) => r.id === caller.id || r.ownerId === caller.id)
      .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /** True when `caller` may revoke `target`. */
  mayRevoke(caller: ApiKeyRecord, target: ApiKeyRecord): boolean {
    return target.id === caller.id || target.ownerId === caller.id;
  }

  /**
   * Revokes a key and, in cascade, every key registered with it (and theirs): they stop working
   * at once and leave every listing. Answers false when `id` is not an active key.
   */
  async revoke(id: string): Promise<boolean> {
    const root = this.byId.get(id);
    if (!root) return false;
    const doomed = new Set([root]);
    const ids = new Set([root.id]);
    // Each pass over the keys adds the next generation; a pass that adds none ends it.
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of this.byId.values())
        if (r.ownerId !== null && ids.has(r.ownerId) && !ids.has(r.id)) {
          doomed.add(r);
          ids.add(r.id);
          grew = true;
        }
    }
    for (const r of doomed) {
      this.byId.delete(r.id);
      this.byHash.delete(r.hash);
      this.dirty.delete(r.id);
    }
    for (const [k, v] of this.seen) if (doomed.has(v.record)) this.seen.delete(k);
    // A lastUsedAt batch in flight must not land after the delete.
    await this.flushing.catch(() => undefined);
    await this.rows.batch([...doomed].map((r) => ({ type: 'del' as const, key: r.id })));
    return true;
  }

  /** Every active key (operator views, tests). */
  all(): ApiKeyRecord[] {
    return [...this.byId.values()];
  }

  /** Flushes and stops the timer. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }
}

/** The public view of a record. */
export function keyView(r: ApiKeyRecord): ApiKeyView {
  return { id: r.id, label: r.label, tier: r.tier, createdAt: r.createdAt, lastUsedAt: r.lastUsedAt };
}
