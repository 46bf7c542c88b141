/** GET /api/health: liveness for operators and load balancers. */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { CHAIN_ENDPOINTS as E } from '../endpoints/chain.ts';
import { serve } from '../endpoints/endpoint.ts';
import { EncodedOnChange, jsonAnswer } from '../jsonAnswer.ts';

/**
 * Health route: 200 `{status: "ok", height, peers, syncing}` (with `checkpoint: "verifying" | "verified"`
 * on a node started from a checkpoint), 503 `{status: "degraded", reason}` while block work keeps
 * failing, 503 `{status: "mismatch", checkpoint: "mismatch", height}` once history contradicted its checkpoint.
 */
export function healthRoutes({ queries, network, chain, checkpoint: started }: ApiDeps): Hono {
  // Load balancers poll it: the body is encoded again only when a field changes.
  const ok = new EncodedOnChange((height: number, peers: number, syncing: boolean, checkpoint?: string) => ({
    status: 'ok',
    height,
    peers,
    syncing,
    ...(checkpoint ? { checkpoint } : {}),
  }));
  const app = new Hono();
  serve(app, E.getApiHealth, (c) => {
    const health = chain.health();
    if (health.status === 'degraded') return c.json(health, 503);
    // A node started from a checkpoint history contradicts serves nothing (api/checkpointGate.ts).
    const checkpoint = started?.status();
    if (checkpoint === 'mismatch') return c.json({ status: 'mismatch', checkpoint, height: queries.chain.height() }, 503);
    return jsonAnswer(c, ok.get(queries.chain.height(), network.peerCount(), network.syncing(), checkpoint));
  });
  return app;
}
