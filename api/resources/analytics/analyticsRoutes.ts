/**
 * /api/analytics: `overview?range=24h|7d|30d` (default 24h) over the hour buckets ending with the
 * latest block's hour, and `heatmap`: all-time transaction counts, 7 rows (Monday first) x 24
 * UTC hours, by block timestamp; `series?range=&step=hour|day`: chart points; `totals`: headline
 * figures. All read projections' memory; nothing is scanned.
 */
import { Hono } from 'hono';
import type { ApiDeps } from '../../context.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { ANALYTICS_ENDPOINTS as E } from './analyticsEndpoints.ts';

/** Analytics routes. */
export function analyticsRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  return resource(
    E,
    {
      getApiAnalyticsOverview: (c, { query }) => c.json(queries.stats.overview(query.range)),
      getApiAnalyticsHeatmap: (c) => c.json({ matrix: queries.stats.heatmap() }),
      getApiAnalyticsSeries: (c, { query }) => c.json(queries.stats.series(query.range, query.step)),
      getApiAnalyticsTotals: (c) => c.json(queries.stats.totals()),
    },
    { app },
  );
}
