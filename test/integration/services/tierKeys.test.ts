/**
 * Tier keys (services/tierKeys.ts) through the key store: a key issued by one node's store is
 * accepted by another's holding the same secret, with its tier and the root of its owner chain;
 * another secret, an altered key or a live key of another node is refused; revocation holds on
 * the node that revoked (the issuer or not), derived keys included.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeyStore } from '../../../services/apiKeys.ts';
import { TierKeys } from '../../../services/tierKeys.ts';
import { openTestChain, type TestChain } from '../../helpers/testChain.ts';

const secret = randomBytes(32);
let chains: TestChain[] = [];

async function store(s?: Buffer): Promise<ApiKeyStore> {
  const c = await openTestChain();
  chains.push(c);
  return new ApiKeyStore(c.node.store, s ? { tierKeys: new TierKeys(s) } : {}).load();
}
afterEach(async () => {
  await Promise.all(chains.map((c) => c.destroy()));
  chains = [];
});

test('a secret shorter than 32 bytes is refused', () => {
  assert.throws(() => new TierKeys(Buffer.alloc(31)), /at least 32 bytes/);
});

test('issued by one node, accepted by another with the same secret; refused under another secret, altered, or as another node’s live key', async () => {
  const [a, b, other, plain] = [await store(secret), await store(secret), await store(randomBytes(32)), await store()];
  const { record, key } = await a.create({ tier: 2, label: 'partner', createdBy: 'operator' });
  assert.match(key, /^ombra_tier2_[0-9a-f]{16}_[0-9a-f]{16}_[0-9a-f]{40}$/);
  const seen = b.check(key);
  assert.ok(seen.ok);
  if (seen.ok) assert.deepEqual([seen.record.id, seen.record.tier, b.rootOf(seen.record).id], [record.id, 2, record.id]);
  assert.deepEqual(other.check(key), { ok: false, why: 'malformed' });
  assert.deepEqual(b.check(`${key.slice(0, 13)}${key[13] === 'a' ? 'b' : 'a'}${key.slice(14)}`), { ok: false, why: 'malformed' });
  assert.deepEqual(plain.check(key), { ok: false, why: 'malformed' }, 'a node without the secret knows no tier key');
  const live = await plain.create({ tier: 1, label: 'local', createdBy: 'operator' });
  assert.match(live.key, /^ombra_live_/);
  assert.deepEqual(b.check(live.key), { ok: false, why: 'unknown' });
});

test('a derived key draws from its root on every node; revoking on a node refuses the key (and those it registered) there', async () => {
  const [a, b] = [await store(secret), await store(secret)];
  const root = await a.create({ tier: 2, label: 'root', createdBy: 'operator' });
  const child = await a.create({ tier: 1, label: 'child', ownerId: root.record.id, createdBy: '198.51.100.1' });
  const seen = b.check(child.key);
  assert.ok(seen.ok);
  if (seen.ok) assert.equal(b.rootOf(seen.record).id, root.record.id, 'the same quota bucket on a node that did not issue it');
  // Revoked on b (which holds no row of it): refused there, with the key it registered.
  assert.equal(await b.revoke(root.record.id), 1);
  assert.deepEqual(b.check(root.key), { ok: false, why: 'unknown' });
  assert.deepEqual(b.check(child.key), { ok: false, why: 'unknown' });
  assert.ok(a.check(root.key).ok, 'revocation is node-local: the issuer still accepts it');
  // Revoked on the issuer: its MAC still holds, its id is refused.
  assert.equal(await a.revoke(root.record.id), 2);
  assert.deepEqual(a.check(root.key), { ok: false, why: 'unknown' });
  assert.deepEqual(a.check(child.key), { ok: false, why: 'unknown' });
});
