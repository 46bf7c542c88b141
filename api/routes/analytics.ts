/**
 * /api/analytics: `overview?range=24h|7d|30d` (default 24h) over the hour buckets ending with the
 * latest block's hour, and `heatmap`: all-time transaction counts, 7 rows (Monday first) x 24
 * UTC hours, by block timestamp. Both read the `analytics` projection; nothing is scanned.
 */
import { Hono } from 'hono';
import { ChainError } from '../../core/errors.ts';
import { RANGES, type Range } from '../../projections/analytics.ts';
import type { ApiDeps } from '../context.ts';

/** Analytics routes. */
export function analyticsRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();
  app.get('/overview', (c) => {
    const range = c.req.query('range') ?? '24h';
    if (!Object.hasOwn(RANGES, range)) throw new ChainError('INVALID_PARAMS', `range must be one of ${Object.keys(RANGES).join(', ')}`);
    return c.json(queries.stats.overview(range as Range));
  });
  app.get('/heatmap', (c) => c.json({ matrix: queries.stats.heatmap() }));
  return app;
}
