/**
 * /api/analytics: `overview?range=24h|7d|30d` (default 24h) over the hour buckets ending with the
 * latest block's hour, and `heatmap`: all-time transaction counts, 7 rows (Monday first) x 24
 * UTC hours, by block timestamp. Both read the `analytics` projection; nothing is scanned.
 */
import { Hono } from 'hono';
import type { ApiDeps } from '../context.ts';
import { serve } from '../endpoints/endpoint.ts';
import { TASK_ENDPOINTS as E } from '../endpoints/tasks.ts';

/** Analytics routes. */
export function analyticsRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  serve(app, E.getApiAnalyticsOverview, (c, { query }) => c.json(queries.stats.overview(query.range)));
  serve(app, E.getApiAnalyticsHeatmap, (c) => c.json({ matrix: queries.stats.heatmap() }));
  return app;
}
