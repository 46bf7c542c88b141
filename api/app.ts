/** The HTTP API: every resource router mounted on one Hono app with shared error handling. */
import { Hono } from 'hono';
import { Compressor } from './compression.ts';
import { CORS_ORIGIN, preflight } from './cors.ts';
import { MatchRecorder, wrapDispatch } from './envelope.ts';
import { defaultApiOptions, type ApiDeps, type ApiOptions } from './context.ts';
import { limitBody } from './body.ts';
import { onError } from './errors.ts';
import { exportRoutes } from './resources/exports/exportRoutes.ts';
import { agentRoutes } from './resources/agent/agentRoutes.ts';
import { analyticsRoutes } from './resources/analytics/analyticsRoutes.ts';
import { blockRoutes } from './resources/blocks/blockRoutes.ts';
import { chainRoutes } from './resources/chain/chainRoutes.ts';
import { ledgerRoutes } from './resources/ledger/ledgerRoutes.ts';
import { taskRoutes } from './resources/tasks/taskRoutes.ts';
import { nftRoutes } from './resources/nfts/nftRoutes.ts';
import { socialRoutes } from './resources/social/socialRoutes.ts';
import { webRoutes } from './resources/web/webRoutes.ts';
import { alertRoutes } from './resources/alerts/alertRoutes.ts';
import { keyRoutes } from './resources/keys/keyRoutes.ts';
import { mountOperatorRoutes } from './resources/operator/operatorRoutes.ts';
import { gateOnCheckpoint } from './checkpointGate.ts';
import { checkpointRoutes } from './resources/checkpoint/checkpointRoutes.ts';

/** Builds the app. */
export function createApp(deps: ApiDeps, options: Partial<ApiOptions> = {}): Hono {
  const opts = { ...defaultApiOptions, ...options };
  const recorder = new MatchRecorder();
  const app = new Hono({ strict: false, router: recorder });
  // No middleware on every method: a GET whose handler answers synchronously is answered
  // synchronously (api/envelope.ts). Preflights, as the spec says, for reads and transaction posts.
  const answerPreflight = preflight(['GET', 'POST', 'DELETE', 'OPTIONS'], ['Content-Type', 'X-API-Key', 'X-Alert-Token']);
  app.options('*', answerPreflight);
  // Only requests that may carry a body pay for the limit (it wraps the request's stream).
  const bodyLimit = limitBody(opts.maxBodyBytes);
  app.on(['POST', 'PUT', 'PATCH', 'DELETE'], '*', bodyLimit);
  // Handlers that are not routes of their own (a route's template, the methods a path takes).
  const skip = new Set<unknown>([answerPreflight, bodyLimit]);
  // Each router registers its routes at the full paths of their definitions (api/resources/, api/endpoints/);
  // the order is the matching order (static segments before parameters within each router).
  const routers = [
    chainRoutes(deps, opts.maxLagBlocks),
    blockRoutes(deps, opts, opts.maxRangeBytes),
    ledgerRoutes(deps),
    exportRoutes(deps),
    taskRoutes(deps, opts),
    nftRoutes(deps),
    socialRoutes(deps),
    agentRoutes(deps),
    analyticsRoutes(deps),
    keyRoutes(deps),
    webRoutes(deps),
    ...(deps.alerts ? [alertRoutes({ ...deps, alerts: deps.alerts })] : []),
    checkpointRoutes(deps.checkpoints),
  ];
  for (const r of routers) app.route('/', r);
  // Last: /metrics, the OpenAPI document (it describes every route mounted before it), /docs, the explorer.
  mountOperatorRoutes(app, deps, opts.metricsRoute);
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname.slice(0, 200);
    // A path some route serves, asked with another method: 405 naming the methods it takes.
    const allow = recorder.allowed(c.req.path, skip);
    if (allow.length > 0)
      return c.json({ error: `${c.req.method} is not allowed on ${path}; it takes ${allow.join(', ')}`, code: 'METHOD_NOT_ALLOWED' }, 405, {
        Allow: allow.join(', '),
      });
    return c.json({ error: `no route ${c.req.method} ${path}`, code: 'NOT_FOUND' }, 404);
  });
  app.onError((err, c) =>
    onError(err, c, (e) => {
      const path = c.req.path.slice(0, 200);
      // An answer that outlived the store (stop waits DRAIN_MS for answers under way: api/httpServer.ts)
      // is the node stopping or reopening its store, not a fault; its client is gone.
      if (storeClosed(e)) deps.log.warn('request outlived the store: the node is stopping or reopening it', { path });
      else deps.log.error('request failed', { path, error: e.stack ?? e.message });
    }),
  );
  if (deps.checkpoint) gateOnCheckpoint(app, deps.checkpoint);
  // Timing outermost, so rate-limited and refused requests are counted too; rate limits before
  // anything else, so every answer (413, 404, preflight) carries the X-RateLimit-* headers.
  wrapDispatch(app, {
    recorder,
    skip,
    corsOrigin: CORS_ORIGIN,
    timings: deps.metrics,
    limiter: deps.limiter,
    compressor: opts.compression ? new Compressor(opts.compression) : undefined,
  });
  return app;
}

/** True for abstract-level's error on a store already closed. */
function storeClosed(e: Error): boolean {
  return (e as Error & { code?: unknown }).code === 'LEVEL_DATABASE_NOT_OPEN';
}
