/**
 * The read stop of a node whose checkpoint history contradicts (node/checkpointVerifier.ts found a
 * mismatch): every request but GET /api/health and /metrics answers 503 CHECKPOINT_MISMATCH, so
 * nothing the unproven checkpoint says reaches a client. Wraps the app's dispatch; while the
 * checkpoint is verifying or verified it costs one status read a request.
 */
import type { Hono } from 'hono';
import type { CheckpointView } from './context.ts';

/** Paths that answer whatever the checkpoint's status: how an operator and a load balancer see it. */
const STILL_SERVED: ReadonlySet<string> = new Set(['/api/health', '/metrics']);

/** The refusal every other request gets. */
function refusal(): Response {
  return Response.json(
    {
      error:
        'this node started from a checkpoint that its background verification found to contradict the chain history; it serves no reads (see /api/health and the log)',
      code: 'CHECKPOINT_MISMATCH',
    },
    { status: 503 },
  );
}

/** Makes `app` refuse every request but health and metrics while `checkpoint` is `mismatch`. */
export function gateOnCheckpoint(app: Hono, checkpoint: CheckpointView): void {
  const dispatch = app.fetch;
  app.fetch = (request, env, ctx) => {
    if (checkpoint.status() !== 'mismatch' || STILL_SERVED.has(new URL(request.url).pathname)) return dispatch(request, env, ctx);
    return refusal();
  };
}
