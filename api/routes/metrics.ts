/** GET /metrics: the Prometheus text exposition of the node's metrics. */
import { Hono } from 'hono';
import type { NodeMetrics } from '../metrics/nodeMetrics.ts';

/** The metrics route. */
export function metricsRoutes(metrics: NodeMetrics): Hono {
  return new Hono().get('/', async (c) => {
    const { body, contentType } = await metrics.exposition();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
}
