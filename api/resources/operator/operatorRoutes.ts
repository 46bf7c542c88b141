/**
 * What operators and people open in a browser, mounted after every API route: GET /metrics
 * (with metrics, unless it has its own listener: api/metricsServer.ts), the OpenAPI document of the app's routes, /docs and the live explorer.
 */
import type { Hono } from 'hono';
import type { ApiDeps } from '../../context.ts';
import { docsRoutes } from './docsRoutes.ts';
import { explorerRoutes } from './explorerRoutes.ts';
import { metricsRoutes } from './metricsRoutes.ts';

/** Mounts the operator routes on `app` (call it after every other route); /metrics only with `metricsRoute`. */
export function mountOperatorRoutes(app: Hono, deps: ApiDeps, metricsRoute = true): void {
  if (deps.metrics && metricsRoute) app.route('/', metricsRoutes(deps.metrics));
  // The document reads app.routes when first asked, so it lists every route, these included.
  app.route(
    '/',
    docsRoutes(() => app.routes),
  );
  app.route('/', explorerRoutes());
}
