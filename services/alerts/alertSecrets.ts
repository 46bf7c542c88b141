/**
 * Alert credentials. A subscription has two: the management token (`X-Alert-Token`, lists,
 * removes, re-enables, rotates; the node keeps only its hash) and the signing secret that keys
 * the webhook HMAC (shown once at subscribe and at each rotation; the node keeps it, since it
 * signs with it). Separate, so that a receiver that verifies signatures never holds the power to
 * manage the subscription, and a leaked signing secret can be rotated without losing it.
 *
 * Secrets follow Standard Webhooks: `whsec_` + base64 of 32 random bytes, the HMAC key being the
 * decoded bytes, so the receivers' Standard Webhooks libraries verify them as they are.
 */
import { createHmac, hash, randomBytes } from 'node:crypto';
import type { SubRecord } from './alertTypes.ts';
import { openSecret, sealSecret } from './secretSeal.ts';

/** Prefix of a Standard Webhooks signing secret. */
const SECRET_PREFIX = 'whsec_';

/** Hex SHA-256 (how tokens and confirmation links are kept). */
export const sha = (s: string): string => hash('sha256', s);

/** A new signing secret. */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** A new management token. */
export function newToken(): string {
  return `ombra_alert_${randomBytes(24).toString('hex')}`;
}

/** A new confirmation link token (unguessable: 256 random bits). */
export function newConfirmToken(): string {
  return randomBytes(32).toString('hex');
}

/**
 * The HMAC key of a secret: the decoded bytes of a `whsec_` secret. A subscription made before
 * secrets existed was signed with its token's UTF-8 bytes; it keeps that key (its receiver has
 * it) until its owner rotates.
 */
function signingKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** One `v1,<base64 HMAC-SHA256>` signature of `<id>.<timestamp>.<body>`. */
function signOnce(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The `webhook-signature` value: one signature per secret in force, space-separated as Standard
 * Webhooks allows (the new secret first; the replaced one during its grace period).
 */
export function signWebhook(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((s) => signOnce(s, id, timestamp, body)).join(' ');
}

/** The secrets a subscription signs with at `now`, opened with the secrets `key` where sealed. */
export function secretsInForce(
  sub: Pick<SubRecord, 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  now: number,
  key?: Buffer,
): string[] {
  const out = [openSecret(key, sub.secret)];
  if (sub.previousSecret && (sub.previousSecretUntil ?? 0) > now) out.push(openSecret(key, sub.previousSecret));
  return out;
}

/**
 * A stored record in today's shape. Records written before secrets carry their token in clear:
 * the token becomes the legacy signing secret (receivers verify with it) and is no longer kept
 * as a token; records before lifecycles are active with no failures behind them; secrets kept in
 * clear are sealed under `key` (when the node has one).
 */
export function upgradeRecord(raw: Record<string, unknown>, key?: Buffer): { rec: SubRecord; changed: boolean } {
  const r = { ...raw } as Record<string, unknown>;
  let changed = false;
  if (typeof r.token === 'string') {
    if (typeof r.secret !== 'string') r.secret = r.token;
    delete r.token;
    changed = true;
  }
  for (const k of ['secret', 'previousSecret'] as const) {
    if (typeof r[k] !== 'string') continue;
    const sealed = sealSecret(key, r[k] as string);
    if (sealed !== r[k]) {
      r[k] = sealed;
      changed = true;
    }
  }
  const defaults: Record<string, unknown> = {
    previousSecret: null,
    previousSecretUntil: null,
    status: 'active',
    confirmHash: null,
    confirmExpiresAt: null,
    consecutiveFailures: 0,
    disabledAt: null,
    disabledReason: null,
  };
  for (const [k, v] of Object.entries(defaults)) {
    if (r[k] !== undefined) continue;
    r[k] = v;
    changed = true;
  }
  return { rec: r as unknown as SubRecord, changed };
}
