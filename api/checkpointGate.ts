/**
 * The read stop of a node whose checkpoint history contradicts (node/checkpointVerifier.ts found a
 * mismatch): every request but GET /api/health and /metrics answers 503 CHECKPOINT_MISMATCH, so
 * nothing the unproven checkpoint says reaches a client. It wraps the app's dispatch, and the
 * WebSocket upgrades (which never reach the app) ask `checkpointRefusal` too. While the checkpoint
 * is verifying or verified it costs one status read a request.
 */
import type { Hono } from 'hono';
import type { CheckpointView } from './context.ts';

/** Paths that answer whatever the checkpoint's status: how an operator and a load balancer see it. */
const STILL_SERVED: ReadonlySet<string> = new Set(['/api/health', '/metrics']);

/** A refusal: its status and `{error, code}` body. */
export interface GateRefusal {
  status: number;
  body: { error: string; code: string };
}

const MISMATCH: GateRefusal = {
  status: 503,
  body: {
    error:
      'this node started from a checkpoint that its background verification found to contradict the chain history; it serves no reads (see /api/health and the log)',
    code: 'CHECKPOINT_MISMATCH',
  },
};

/** The refusal a request for `path` gets while `checkpoint` is `mismatch`, or null when it is served. */
export function checkpointRefusal(checkpoint: CheckpointView, path: string): GateRefusal | null {
  return checkpoint.status() === 'mismatch' && !STILL_SERVED.has(path) ? MISMATCH : null;
}

/** Makes `app` refuse every request but health and metrics while `checkpoint` is `mismatch`. */
export function gateOnCheckpoint(app: Hono, checkpoint: CheckpointView): void {
  const dispatch = app.fetch;
  app.fetch = (request, env, ctx) => {
    if (checkpoint.status() !== 'mismatch') return dispatch(request, env, ctx);
    const refused = checkpointRefusal(checkpoint, new URL(request.url).pathname);
    return refused ? Response.json(refused.body, { status: refused.status }) : dispatch(request, env, ctx);
  };
}
