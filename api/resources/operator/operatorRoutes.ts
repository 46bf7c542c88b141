/**
 * What operators and people open in a browser, mounted after every API route: GET /metrics
 * (with metrics, unless it has its own listener: api/metricsServer.ts), the OpenAPI document of
 * the app's routes (built on first request and kept), /docs (a page the node serves itself that
 * renders it; no CDN) and the live explorer (./explorerRoutes.ts). The definitions are
 * ./operatorEndpoints.ts'; only the document answers JSON.
 */
import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import { present } from '../../../core/errors.ts';
import type { ApiDeps } from '../../context.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { notFound } from '../../errors.ts';
import { jsonAnswer } from '../../jsonAnswer.ts';
import type { NodeMetrics } from '../../metrics/nodeMetrics.ts';
import { buildOpenApi, type RouteRef } from '../../openapi/document.ts';
import { assetAnswer, pageHeaders, staticDir, versionedPage } from '../../staticFiles.ts';
import { explorerRoutes } from './explorerRoutes.ts';
import { DOCS_ENDPOINTS, METRICS_ENDPOINTS } from './operatorEndpoints.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const files = staticDir(new URL('../../docs/', import.meta.url));

/** GET /metrics: the Prometheus text exposition of the node's metrics. */
export function metricsRoutes(metrics: NodeMetrics): Hono {
  return resource(METRICS_ENDPOINTS, {
    getMetrics: async (c) => {
      const { body, contentType } = await metrics.exposition();
      return c.body(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
    },
  });
}

/** The document and /docs over the routes of the app they describe. */
function docsRoutes(routes: () => readonly RouteRef[]): Hono {
  let doc: string | null = null;
  let page: { body: string; headers: Record<string, string> } | undefined;
  return resource(DOCS_ENDPOINTS, {
    getApiOpenapiJson: (c) => {
      doc ??= JSON.stringify(buildOpenApi(routes(), { version: VERSION }));
      return jsonAnswer(c, doc, { 'Cache-Control': 'no-cache' });
    },
    getDocs: (c) => {
      if (!page) {
        const versions = new Map(files.names.filter((n) => n !== 'index.html').map((n) => [`/docs/${n}`, present(files(n), n).version]));
        const body = versionedPage(present(files('index.html'), 'the docs page').body, versions);
        page = { body, headers: pageHeaders(body) };
      }
      return c.body(page.body, 200, page.headers);
    },
    getDocsFile: (c, { params }) => {
      const name = params.file;
      const f = name === 'index.html' ? undefined : files(name);
      return f ? assetAnswer(c, f) : notFound(`docs file ${name.slice(0, 60)}`);
    },
  });
}

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
