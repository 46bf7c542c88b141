/** GET /api/health: liveness for operators and load balancers. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';

/** Health route: 200 `{status: "ok", height, peers, syncing}`, or 503 `{status: "degraded", reason}` while block work keeps failing. */
export function healthRoutes({ queries, network, chain }: ApiDeps): Hono {
  return new Hono().get('/', (c) => {
    const health = chain.health();
    if (health.status === 'degraded') return c.json(health, 503);
    return c.json({ status: 'ok', height: queries.chain.height(), peers: network.peerCount(), syncing: network.syncing() });
  });
}
