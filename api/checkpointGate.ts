/**
 * The read stop of a node started from a checkpoint it has not proven (checkpoint/checkpointVerifier.ts):
 * while the checkpoint is `verifying` or `failed` (unless the operator chose `--serve-unverified`)
 * every request but GET /api/health and /metrics answers 503 CHECKPOINT_UNVERIFIED, and once
 * history contradicted it (`mismatch`) 503 CHECKPOINT_MISMATCH whatever the choice, so nothing an
 * unproven checkpoint says (a balance, a read model row) reaches a client or admits a transaction.
 * It wraps the app's dispatch, and the WebSocket upgrades (which never reach the app) ask
 * `checkpointRefusal` too. Once the checkpoint is verified it costs one status read a request.
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

const UNVERIFIED: GateRefusal = {
  status: 503,
  body: {
    error:
      'this node started from a checkpoint it has not yet verified against the chain history; it serves reads once verified (see /api/health)',
    code: 'CHECKPOINT_UNVERIFIED',
  },
};

/** The refusal a request for `path` gets in `checkpoint`'s status, or null when it is served. */
export function checkpointRefusal(checkpoint: CheckpointView, path: string): GateRefusal | null {
  const status = checkpoint.status();
  if (status === 'verified' || STILL_SERVED.has(path)) return null;
  if (status === 'mismatch') return MISMATCH;
  return checkpoint.serveUnverified ? null : UNVERIFIED;
}

/** Makes `app` refuse every request but health and metrics while `checkpoint` is unproven (see above). */
export function gateOnCheckpoint(app: Hono, checkpoint: CheckpointView): void {
  const dispatch = app.fetch;
  app.fetch = (request, env, ctx) => {
    if (checkpoint.status() === 'verified') return dispatch(request, env, ctx);
    const refused = checkpointRefusal(checkpoint, new URL(request.url).pathname);
    return refused ? Response.json(refused.body, { status: refused.status }) : dispatch(request, env, ctx);
  };
}
