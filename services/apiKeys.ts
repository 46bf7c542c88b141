/**
 * API keys: node-local data in the `local:keys` sublevel (never chain state). The key format and
 * the stored record are in services/apiKeyFormat.ts. Only SHA-256 of the key is stored; the key
 * itself is shown once, at creation. Every active key is held in memory by its hash, so checking
 * a key costs one CRC, one hash and one map lookup. `lastUsedAt` is updated in memory
 * and written in batches (services/lastUsedWriter.ts: at most one write per key per `flushMs`),
 * never once per request.
 *
 * Ownership: a key registered while presenting another key (X-API-Key) is owned by that key. A
 * caller sees and may revoke itself and the keys it owns; nothing else.
 *
 * With a tier secret (`tierKeys`) the keys this node issues are tier keys (services/tierKeys.ts),
 * valid on every node given the same secret: a node that did not issue one accepts it on its MAC
 * alone, unless it revoked that id itself (`local:keys:revoked`).
 */
import { randomBytes } from 'node:crypto';
import type { ChainStore } from '../node/store/chainStore.ts';
import type { Component } from '../node/ports.ts';
import { ChainError } from '../core/errors.ts';
import { generateKey, keyHash, wellFormedKey, type ApiKeyRecord } from './apiKeyFormat.ts';
import { LastUsedWriter } from './lastUsedWriter.ts';
import { foreignTierRecord, RevokedIds, type TierKeys } from './tierKeys.ts';

/** Key store options. */
export interface ApiKeyOptions {
  /** How often buffered lastUsedAt values are written (ms). */
  flushMs: number;
  /** Active keys one client IP may have registered (without presenting a key). */
  maxKeysPerIp: number;
  /** Active keys one key may have registered (derived keys). */
  maxKeysPerOwner: number;
  /** Active keys in all. */
  maxKeys: number;
  /** Issues and accepts keys valid across a read tier (absent: keys of this node only). */
  tierKeys?: TierKeys;
  clock: () => number;
}

const defaultApiKeyOptions: ApiKeyOptions = {
  flushMs: 10_000,
  maxKeysPerIp: 20,
  maxKeysPerOwner: 20,
  maxKeys: 100_000,
  clock: Date.now,
};

/** Outcome of checking a presented key. */
export type KeyCheck = { ok: true; record: ApiKeyRecord } | { ok: false; why: 'malformed' | 'unknown' };

/** The key store. */
export class ApiKeyStore implements Component {
  private readonly rows: ReturnType<ChainStore['sublevel']>;
  /** Ids of tier keys this node revoked (another node's key has no row here to delete). */
  private readonly revoked: RevokedIds;
  private readonly byHash = new Map<string, ApiKeyRecord>();
  private readonly byId = new Map<string, ApiKeyRecord>();
  /** Presented key -> record, for keys already checked (skips the regex, CRC and hash). */
  private readonly seen = new Map<string, { ok: true; record: ApiKeyRecord }>();
  private readonly opts: ApiKeyOptions;
  private readonly lastUsed: LastUsedWriter;
  private loading: Promise<this> | null = null;

  constructor(store: ChainStore, options: Partial<ApiKeyOptions> = {}) {
    this.rows = store.sublevel('local:keys');
    this.revoked = new RevokedIds(store.sublevel('local:keys:revoked'));
    this.opts = { ...defaultApiKeyOptions, ...options };
    this.lastUsed = new LastUsedWriter(this.rows, (id) => this.byId.get(id), this.opts.flushMs);
  }

  /** Lifecycle: loads the keys. */
  async start(): Promise<void> {
    await this.load();
  }

  /** Lifecycle: stops the flush timer and writes the last-used times still pending. */
  async stop(): Promise<void> {
    await this.lastUsed.stop();
  }

  /** Loads every active key into memory; call once before use. */
  load(): Promise<this> {
    this.loading ??= (async () => {
      for await (const v of this.rows.values()) {
        const r = v as ApiKeyRecord;
        this.byHash.set(r.hash, r);
        this.byId.set(r.id, r);
      }
      await this.revoked.load();
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
    // Caps are quotas: 429 RATE_LIMITED, not a malformed request.
    if (this.byId.size >= this.opts.maxKeys) throw new ChainError('RATE_LIMITED', `this node holds ${this.opts.maxKeys} keys, its most`);
    if (input.ownerId && this.countOwnedBy(input.ownerId) >= this.opts.maxKeysPerOwner)
      throw new ChainError(
        'RATE_LIMITED',
        `this key already registered ${this.opts.maxKeysPerOwner} active keys, the most one key may; revoke one first`,
      );
    const owner = input.ownerId ? this.byId.get(input.ownerId) : undefined;
    const tier = this.opts.tierKeys?.issue(input.tier, input.ownerId ? (owner ? this.rootOf(owner).id : input.ownerId) : null);
    const key = tier?.key ?? generateKey();
    const record: ApiKeyRecord = {
      id: tier?.claims.id ?? `key_${randomBytes(8).toString('hex')}`,
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

  /** Active keys registered while presenting key `ownerId`. */
  countOwnedBy(ownerId: string): number {
    let n = 0;
    for (const r of this.byId.values()) if (r.ownerId === ownerId) n++;
    return n;
  }

  /** The key a derived key's quota comes from: up its chain of owners to the first one. */
  rootOf(record: ApiKeyRecord): ApiKeyRecord {
    // Another node's tier key: its root is in the key (the same bucket on every node).
    if (record.rootId && record.rootId !== record.id && !this.byId.has(record.id))
      return this.byId.get(record.rootId) ?? { ...record, id: record.rootId };
    let r = record;
    // Bounded: owners are older keys, so the chain ends; the bound guards a damaged store.
    for (let i = 0; i < 64 && r.ownerId; i++) {
      const up = this.byId.get(r.ownerId);
      if (!up) break;
      r = up;
    }
    return r;
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
    const claims = this.opts.tierKeys?.verify(key);
    if (claims === null && key.startsWith('ombra_tier')) return { ok: false, why: 'malformed' };
    if (claims) {
      if (this.revoked.refuses(claims)) return { ok: false, why: 'unknown' };
    } else if (key.length !== 60 || !wellFormedKey(key)) return { ok: false, why: 'malformed' };
    const hash = keyHash(key);
    const record = this.byHash.get(hash) ?? (claims ? foreignTierRecord(claims, hash) : undefined);
    if (!record) return { ok: false, why: 'unknown' };
    if (this.seen.size >= 10_000) this.seen.clear();
    const ok = { ok: true as const, record };
    this.seen.set(key, ok);
    return ok;
  }

  /** Notes a use of a key; written with the next batch. */
  touch(record: ApiKeyRecord): void {
    record.lastUsedAt = this.opts.clock();
    this.lastUsed.mark(record.id);
  }

  /** Writes buffered lastUsedAt values in one batch. */
  flush(): Promise<void> {
    return this.lastUsed.flush();
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
   * Revokes a key and every key registered with it (and with those, down the chain): they stop
   * working at once and leave every listing. Answers how many keys went (0: unknown id).
   */
  async revoke(id: string): Promise<number> {
    const r = this.byId.get(id);
    if (!r) {
      // Another node's tier key has no row here: its id is refused from now on, on this node.
      if (!this.opts.tierKeys || !/^key_[0-9a-f]{16}$/.test(id) || this.revoked.has(id)) return 0;
      await this.revoked.add([id]);
      return 1;
    }
    const gone = [r];
    for (let i = 0; i < gone.length; i++)
      for (const k of this.byId.values()) if (k.ownerId === gone[i].id && !gone.includes(k)) gone.push(k);
    for (const k of gone) {
      this.byId.delete(k.id);
      this.byHash.delete(k.hash);
      this.lastUsed.forget(k.id);
    }
    for (const [key, v] of this.seen) if (gone.includes(v.record)) this.seen.delete(key);
    // A lastUsedAt batch in flight must not land after the delete.
    await this.lastUsed.settled();
    await this.rows.batch(gone.map((k) => ({ type: 'del' as const, key: k.id })));
    // A tier key stays valid by its MAC: its id is refused from now on instead.
    if (this.opts.tierKeys) await this.revoked.add(gone.map((k) => k.id));
    return gone.length;
  }

  /** Every active key (operator views, tests). */
  all(): ApiKeyRecord[] {
    return [...this.byId.values()];
  }
}
