/** GET /api/health: liveness for operators and load balancers. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';

/** Health route. */
export function healthRoutes({ queries, network }: ApiDeps): Hono {
  return new Hono().get('/', (c) =>
    c.json({ status: 'ok', height: queries.chain.height(), peers: network.peerCount(), syncing: network.syncing() }),
  );
}
