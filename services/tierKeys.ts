/**
 * API keys valid on every node of a read tier (docs/scaling.md), checked without a lookup: every
 * node is given the same tier secret (`--api-key-secret-file`), and a key carries its tier, its id,
 * the id of the key at the top of its chain of owners (whose quota it draws from) and an
 * HMAC-SHA256 of all three under the secret:
 *
 *   ombra_tier<T>_<id: 16 hex>_<root id: 16 hex>_<MAC: 40 hex>
 *
 * Any node of the tier issues them (`ombra keys create`, `POST /api/keys/register`) and every node
 * accepts them, with no replication; a made-up or altered key fails its MAC. The tier and the root
 * id are in clear so the balancer counts quotas per key chain across the whole tier
 * (deploy/haproxy.cfg.template); the MAC makes them trustworthy at the node. Revocation is
 * node-local (a revoked id is refused by the node that revoked it): revoking across a tier means
 * revoking on each node, or rotating the secret (every key then fails).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord } from './apiKeyFormat.ts';

const TIER_KEY_RE = /^ombra_tier([1-9])_([0-9a-f]{16})_([0-9a-f]{16})_([0-9a-f]{40})$/;

/** Least length of a tier secret (bytes of the file, trimmed). */
export const MIN_TIER_SECRET = 32;

/** What a valid tier key says of itself. */
export interface TierKeyClaims {
  tier: number;
  /** `key_<16 hex>`, as every key id. */
  id: string;
  /** The id of the key whose quota it draws from (itself for a key no other key registered). */
  rootId: string;
}

/** Issues and checks tier keys under one secret. */
export class TierKeys {
  private readonly secret: Buffer;

  constructor(secret: Buffer) {
    if (secret.length < MIN_TIER_SECRET) throw new Error(`a tier secret needs at least ${MIN_TIER_SECRET} bytes`);
    this.secret = secret;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('hex').slice(0, 40);
  }

  /** A new key of `tier`; `rootId` is the top of its owner chain (none: the key is its own root). */
  issue(tier: number, rootId?: string | null): { key: string; claims: TierKeyClaims } {
    const hex = randomBytes(8).toString('hex');
    const root = rootId ? rootId.replace(/^key_/, '') : hex;
    const body = `ombra_tier${tier}_${hex}_${root}`;
    return { key: `${body}_${this.mac(body)}`, claims: { tier, id: `key_${hex}`, rootId: `key_${root}` } };
  }

  /** What `key` claims if its MAC holds under the secret; null for anything else. */
  verify(key: string): TierKeyClaims | null {
    const m = TIER_KEY_RE.exec(key);
    if (!m) return null;
    const body = key.slice(0, key.length - 41);
    const want = Buffer.from(this.mac(body));
    if (!timingSafeEqual(want, Buffer.from(m[4]))) return null;
    return { tier: Number(m[1]), id: `key_${m[2]}`, rootId: `key_${m[3]}` };
  }
}

/** The record of a tier key another node issued (this node holds no row of it): known by its MAC alone. */
export function foreignTierRecord(claims: TierKeyClaims, hash: string): ApiKeyRecord {
  return {
    id: claims.id,
    hash,
    tier: claims.tier,
    label: '',
    createdAt: 0,
    lastUsedAt: null,
    ownerId: null,
    createdBy: 'tier',
    rootId: claims.rootId,
  };
}

/** What the revoked-id set stores in (a sublevel). */
interface IdRows {
  keys(): AsyncIterable<string>;
  batch(ops: { type: 'put'; key: string; value: number }[]): Promise<void>;
}

/**
 * Ids of tier keys this node revoked: a tier key stays valid by its MAC, so revoking it means
 * refusing its id (and the ids of keys it registered) from then on, on this node.
 */
export class RevokedIds {
  private readonly ids = new Set<string>();
  private readonly rows: IdRows;

  constructor(rows: IdRows) {
    this.rows = rows;
  }

  async load(): Promise<void> {
    for await (const id of this.rows.keys()) this.ids.add(id);
  }

  /** True when the key of `claims`, or the key at the top of its chain, was revoked here. */
  refuses(claims: TierKeyClaims): boolean {
    return this.ids.has(claims.id) || this.ids.has(claims.rootId);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  async add(ids: string[]): Promise<void> {
    await this.rows.batch(ids.map((key) => ({ type: 'put' as const, key, value: 1 })));
    for (const id of ids) this.ids.add(id);
  }
}
