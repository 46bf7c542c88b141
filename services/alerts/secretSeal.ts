/**
 * Webhook signing secrets at rest: the node must sign with them, so they cannot be hashed like
 * tokens; they are sealed with AES-256-GCM under the node's secrets key (`DATA_DIR/secrets.key`,
 * 0600, made by `ombra start`) and opened only to sign. A copy of the database (a backup, a
 * snapshot of `db/`) without the key file holds no usable secret. A record's secret reads
 * `sealed:v1:<iv>:<tag>:<ciphertext>` (base64url parts); a record written before sealing holds
 * it in clear and is sealed when the node loads it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const PREFIX = 'sealed:v1:';

/** True when `s` is a sealed secret. */
const isSealed = (s: string): boolean => s.startsWith(PREFIX);

/** Seals `secret` under `key` (32 bytes); without a key, or for '' (an e-mail subscription), the value as is. */
export function sealSecret(key: Buffer | undefined, secret: string): string {
  if (!key || secret === '' || isSealed(secret)) return secret;
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(secret, 'utf8'), c.final()]);
  return `${PREFIX}${iv.toString('base64url')}:${c.getAuthTag().toString('base64url')}:${body.toString('base64url')}`;
}

/** The secret a stored value holds: opened with `key` when sealed (a wrong key or a damaged value throws). */
export function openSecret(key: Buffer | undefined, stored: string): string {
  if (!isSealed(stored)) return stored;
  if (!key) throw new Error('a sealed webhook secret and no secrets key: start the node with its DATA_DIR/secrets.key');
  const [iv, tag, body] = stored.slice(PREFIX.length).split(':');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}
