/**
 * launch/storageRecovery.ts `samePorts`: a relaunch after a full disk keeps the ports the node took.
 * A node started with --p2p-announce serves its announced address, not its listen address: the
 * relaunch must listen on the configured p2p port again, never on the announced one (found by the
 * e2e runner: every reopen failed with "the p2p address 127.0.0.1:<announced port> is taken").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Launched } from '../../../launch/launch.ts';
import type { LaunchConfig } from '../../../launch/launchConfig.ts';
import { samePorts } from '../../../launch/storageRecovery.ts';

/** A running node as samePorts reads it: its URL, metrics URL and p2p addresses. */
const running = (addresses: string[]) =>
  ({ url: 'http://127.0.0.1:8001', metricsUrl: null, p2p: { addresses: () => addresses } }) as unknown as Launched;

test('a port 0 becomes the port the node took', () => {
  const config = { httpPort: 0, p2p: { host: '127.0.0.1', port: 0, peers: [] } } as unknown as LaunchConfig;
  const out = samePorts(config, running(['/ip4/127.0.0.1/tcp/40123/p2p/12D3KooWabc']));
  assert.equal(out.httpPort, 8001);
  assert.equal(out.p2p?.port, 40123);
});

test('with announced addresses the configured p2p port stays, not the announced one', () => {
  const config = {
    httpPort: 8001,
    p2p: { host: '127.0.0.1', port: 7778, peers: [], announce: ['/ip4/127.0.0.1/tcp/33115'] },
  } as unknown as LaunchConfig;
  const out = samePorts(config, running(['/ip4/127.0.0.1/tcp/33115/p2p/12D3KooWabc']));
  assert.equal(out.p2p?.port, 7778);
});
