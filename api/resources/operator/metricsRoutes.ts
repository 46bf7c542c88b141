/** GET /metrics: the Prometheus text exposition of the node's metrics. */
import { Hono } from 'hono';
import { serve } from '../../endpoints/endpoint.ts';
import { OPERATOR_ENDPOINTS as E } from './operatorEndpoints.ts';
import type { NodeMetrics } from '../../metrics/nodeMetrics.ts';

/** The metrics route. */
export function metricsRoutes(metrics: NodeMetrics): Hono {
  const app = new Hono();
  serve(app, E.getMetrics, async (c) => {
    const { body, contentType } = await metrics.exposition();
    return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  });
  return app;
}
