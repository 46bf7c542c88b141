/**
 * GET /api/openapi.json (the OpenAPI 3.1 document of `app`'s own routes, built on first request
 * and kept) and GET /docs (a page the node serves itself that renders it; no CDN).
 */
import { present } from '../../../core/errors.ts';
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { serve } from '../../endpoints/endpoint.ts';
import { jsonAnswer } from '../../jsonAnswer.ts';
import { OPERATOR_ENDPOINTS as E } from './operatorEndpoints.ts';
import { notFound } from '../../errors.ts';
import { buildOpenApi, type RouteRef } from '../../openapi/document.ts';
import { assetAnswer, pageHeaders, staticDir, versionedPage } from '../../staticFiles.ts';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const files = staticDir(new URL('../../docs/', import.meta.url));

/** Docs routes over the routes of the app they describe. */
export function docsRoutes(routes: () => readonly RouteRef[]): Hono {
  let doc: string | null = null;
  const app = new Hono();
  serve(app, E.getApiOpenapiJson, (c) => {
    doc ??= JSON.stringify(buildOpenApi(routes(), { version: VERSION }));
    return jsonAnswer(c, doc, { 'Cache-Control': 'no-cache' });
  });
  let page: { body: string; headers: Record<string, string> } | undefined;
  serve(app, E.getDocs, (c) => {
    if (!page) {
      const versions = new Map(files.names.filter((n) => n !== 'index.html').map((n) => [`/docs/${n}`, present(files(n), n).version]));
      const body = versionedPage(present(files('index.html'), 'the docs page').body, versions);
      page = { body, headers: pageHeaders(body) };
    }
    return c.body(page.body, 200, page.headers);
  });
  serve(app, E.getDocsFile, (c, { params }) => {
    const name = params.file;
    const f = name === 'index.html' ? undefined : files(name);
    return f ? assetAnswer(c, f) : notFound(`docs file ${name.slice(0, 60)}`);
  });
  return app;
}
