/** GET /api/health (the chain resource's): liveness and readiness for operators and load balancers. */
import { type ApiDeps, isBehind } from '../../context.ts';
import type { CHAIN_ENDPOINTS as E } from './chainEndpoints.ts';
import type { Handlers } from '../../endpoints/endpoint.ts';
import { EncodedOnChange, jsonAnswer } from '../../jsonAnswer.ts';

/**
 * The health handler: 200 `{status: "ok", height, peers, syncing}` (with `checkpoint: "verified"` on a
 * node started from a checkpoint, or `"verifying"` when the operator serves it unverified);
 * 503 `{status: "degraded", reason}` while block work keeps failing; 503 `{status: "verifying",
 * checkpoint: "verifying", height}` while the checkpoint is unproven (reads answer 503
 * CHECKPOINT_UNVERIFIED, api/checkpointGate.ts); 503 `{status: "failed" | "mismatch", checkpoint,
 * reason, height}` when its verification could not be done or history contradicted it; 503
 * `{status: "behind", height, networkHeight}` while the head is more than `maxLagBlocks` below the
 * best head peers showed. A load balancer drains the node on any 503.
 */
export function healthHandlers(
  { queries, network, chain, checkpoint: started }: ApiDeps,
  maxLagBlocks: number,
): Pick<Handlers<typeof E>, 'getApiHealth'> {
  // Load balancers poll it: the body is encoded again only when a field changes.
  const ok = new EncodedOnChange((height: number, peers: number, syncing: boolean, checkpoint?: 'verifying' | 'verified') => ({
    status: 'ok' as const,
    height,
    peers,
    syncing,
    ...(checkpoint ? { checkpoint } : {}),
  }));
  return {
    getApiHealth: (c) => {
      const health = chain.health();
      if (health.status === 'degraded') return c.json(health, 503);
      const height = queries.chain.height();
      // A node started from a checkpoint it has not proven serves no reads (api/checkpointGate.ts).
      const checkpoint = started?.status();
      if (checkpoint === 'mismatch' || checkpoint === 'failed')
        return c.json({ status: checkpoint, checkpoint, reason: started?.reason() ?? '', height }, 503);
      if (checkpoint === 'verifying' && !started?.serveUnverified) return c.json({ status: checkpoint, checkpoint, height }, 503);
      if (isBehind(network, height, maxLagBlocks))
        return c.json({ status: 'behind', height, networkHeight: network.networkHeight?.() }, 503);
      return jsonAnswer(c, ok.get(height, network.peerCount(), network.syncing(), checkpoint));
    },
  };
}
