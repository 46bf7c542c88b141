/**
 * The connection gater (p2p/connectionGuard.ts) refuses a banned peer both ways while its ban
 * lasts, known or not; everyone else gets the caps as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MultiaddrConnection, PeerId } from '@libp2p/interface';
import { multiaddr } from '@multiformats/multiaddr';
import { ConnectionGuard } from '../../../p2p/connectionGuard.ts';

const peer = (id: string) => ({ toString: () => id }) as unknown as PeerId;
const conn = { remoteAddr: multiaddr('/ip4/127.0.0.1/tcp/4001') } as unknown as MultiaddrConnection;
const opts = { maxConnections: 64, maxConnectionsPerIp: 8, reservedKnownConnections: 16 };

test('a banned peer is neither dialled nor let in, even a known one; the ban lifted, it is both again', async () => {
  const banned = new Set(['mallory', 'known-but-banned']);
  const guard = new ConnectionGuard(
    opts,
    (p) => p.startsWith('known'),
    () => [],
    (p) => banned.has(p),
  );
  const gater = guard.gater();
  assert.equal(await gater.denyDialPeer?.(peer('mallory')), true);
  assert.equal(await gater.denyInboundEncryptedConnection?.(peer('mallory'), conn), true);
  assert.equal(await gater.denyInboundEncryptedConnection?.(peer('known-but-banned'), conn), true, 'being known does not lift a ban');
  assert.equal(await gater.denyDialPeer?.(peer('alice')), false);
  assert.equal(await gater.denyInboundEncryptedConnection?.(peer('alice'), conn), false);
  assert.equal(guard.refusedBanned, 3);
  assert.equal(guard.refused, 0, 'the caps refused no one');
  banned.clear();
  assert.equal(await gater.denyDialPeer?.(peer('mallory')), false);
  assert.equal(await gater.denyInboundEncryptedConnection?.(peer('mallory'), conn), false);
});

test('without a ban list the gater dials everyone and refuses only strangers over the caps', async () => {
  const gater = new ConnectionGuard(
    opts,
    () => false,
    () => [],
  ).gater();
  assert.equal(await gater.denyDialPeer?.(peer('anyone')), false);
  assert.equal(await gater.denyInboundEncryptedConnection?.(peer('anyone'), conn), false);
});
