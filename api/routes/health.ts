/** GET /api/health: liveness for operators and load balancers. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { CHAIN_ENDPOINTS as E } from '../endpoints/chain.ts';
import { serve } from '../endpoints/endpoint.ts';
import { EncodedOnChange, jsonAnswer } from '../jsonAnswer.ts';

/** Health route: 200 `{status: "ok", height, peers, syncing}`, or 503 `{status: "degraded", reason}` while block work keeps failing. */
export function healthRoutes({ queries, network, chain }: ApiDeps): Hono {
  // Load balancers poll it: the body is encoded again only when a field changes.
  const ok = new EncodedOnChange((height: number, peers: number, syncing: boolean) => ({ status: 'ok', height, peers, syncing }));
  const app = new Hono();
  serve(app, E.getApiHealth, (c) => {
    const health = chain.health();
    if (health.status === 'degraded') return c.json(health, 503);
    return jsonAnswer(c, ok.get(queries.chain.height(), network.peerCount(), network.syncing()));
  });
  return app;
}
