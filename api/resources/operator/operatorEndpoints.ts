/**
 * The definitions of the operator routes: metrics, this document and /docs (served by
 * ./operatorRoutes.ts), and the explorer (served by ./explorerRoutes.ts). None answers JSON but
 * the document: their answers are text, pages and files of the content types declared here.
 */
import { endpoints } from '../../endpoints/endpoint.ts';

const file = (what: string, example: string) => ({ schema: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$' }, description: what, example });

/** GET /metrics (mounted apart: the metrics listener serves it alone). */
export const METRICS_ENDPOINTS = endpoints({
  getMetrics: {
    method: 'GET',
    path: '/metrics',
    tag: 'operator',
    summary: 'Prometheus metrics (text exposition): ombra_* plus process and Node.js metrics',
    ok: { contentType: 'text/plain', description: 'Prometheus text format 0.0.4' },
  },
});

/** The OpenAPI document and the page that renders it. */
export const DOCS_ENDPOINTS = endpoints({
  getApiOpenapiJson: {
    method: 'GET',
    path: '/api/openapi.json',
    tag: 'operator',
    summary: 'This document (OpenAPI 3.1)',
    ok: { schema: { type: 'object' } },
  },
  getDocs: {
    method: 'GET',
    path: '/docs',
    tag: 'operator',
    summary: 'This document, readable in a browser',
    ok: { contentType: 'text/html', description: 'the docs page' },
  },
  getDocsFile: {
    method: 'GET',
    path: '/docs/:file',
    tag: 'operator',
    summary: "The docs page's script and style",
    params: { file: file('docs.js or docs.css', 'docs.js') },
    ok: { contentType: 'text/javascript', otherTypes: ['text/css'], description: 'a static file' },
    errors: [404],
  },
});

/** The live explorer: its page and the files it loads. */
export const EXPLORER_ENDPOINTS = endpoints({
  get: {
    method: 'GET',
    path: '/',
    tag: 'explorer',
    summary: 'The live block explorer',
    ok: { contentType: 'text/html', description: 'the explorer page' },
  },
  getExplorerFile: {
    method: 'GET',
    path: '/explorer/:file',
    tag: 'explorer',
    summary: "The explorer's modules (TypeScript, types stripped on the fly), style and icon",
    params: { file: file('a file of api/explorer/', 'app.ts') },
    ok: {
      contentType: 'text/javascript',
      otherTypes: ['text/css', 'image/svg+xml'],
      description: 'a static file (modules, style sheets, the icon)',
    },
    errors: [404],
  },
  getExplorerClientFile: {
    method: 'GET',
    path: '/explorer/client/:file',
    tag: 'explorer',
    summary: "The client's browser modules, their TypeScript types stripped on the fly",
    params: { file: file('a browser-safe module of client/', 'reads.ts') },
    ok: { contentType: 'text/javascript', description: 'an ES module' },
    errors: [404],
  },
  getExplorerCoreFile: {
    method: 'GET',
    path: '/explorer/core/:file',
    tag: 'explorer',
    summary: 'The browser-safe modules of core/ the explorer shares (OMBRA amounts), their TypeScript types stripped on the fly',
    params: { file: file('a browser-safe module of core/', 'ombraAmount.ts') },
    ok: { contentType: 'text/javascript', description: 'an ES module' },
    errors: [404],
  },
  getExplorerVendorFile: {
    method: 'GET',
    path: '/explorer/vendor/:file',
    tag: 'explorer',
    summary: 'Third-party browser files served from node_modules (eventsource-parser, the uPlot chart library)',
    params: { file: file('eventsource-parser.js, uPlot.js or uPlot.css', 'uPlot.js') },
    ok: { contentType: 'text/javascript', otherTypes: ['text/css'], description: 'an ES module or a style sheet' },
    errors: [404],
  },
});
