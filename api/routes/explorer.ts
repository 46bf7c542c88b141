/**
 * The live explorer at GET /, served from files in the repo (api/explorer/): plain ES modules,
 * no build step. The browser part of the typed client (client/*.ts) is served from
 * /explorer/client/ with its types stripped by Node's own `module.stripTypeScriptTypes` (one
 * source for Node and browser; stripped once, then kept), and eventsource-parser from
 * node_modules at /explorer/vendor/, which the page's import map names.
 */
import { present } from '../../core/errors.ts';
import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { serve } from '../endpoints/endpoint.ts';
import { OPERATOR_ENDPOINTS as E } from '../endpoints/operator.ts';
import { notFound } from '../errors.ts';
import { assetHeaders, pageHeaders, staticDir } from '../staticFiles.ts';

/** The client modules a browser may load: the browser-safe import graph of client/browser.ts. */
export const BROWSER_CLIENT_MODULES: readonly string[] = ['browser.ts', 'http.ts', 'reads.ts', 'routes.ts', 'subscribe.ts', 'types.ts'];
/** Third-party browser modules: name → module specifier (resolved to its ESM build). */
const VENDOR_MODULES: Readonly<Record<string, string>> = { 'eventsource-parser.js': 'eventsource-parser' };

const JS = 'text/javascript; charset=utf-8';
const files = staticDir(new URL('../explorer/', import.meta.url));
const stripped = new Map<string, string>();

/**
 * `module.stripTypeScriptTypes` without its ExperimentalWarning: Node 24 still marks the function
 * experimental although it is the type stripper that loads this very file. Only that one
 * warning is held back; any other goes out as usual.
 */
function stripTypes(source: string): string {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (!String(warning instanceof Error ? warning.message : warning).startsWith('stripTypeScriptTypes'))
      (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return stripTypeScriptTypes(source);
  } finally {
    process.emitWarning = emit;
  }
}

/** A client module as the browser gets it: its TypeScript types stripped. */
export function browserModule(name: string): string | undefined {
  if (!BROWSER_CLIENT_MODULES.includes(name)) return undefined;
  let js = stripped.get(name);
  if (js === undefined) {
    js = stripTypes(readFileSync(new URL(`../../client/${name}`, import.meta.url), 'utf8'));
    stripped.set(name, js);
  }
  return js;
}

/** A vendored module's ESM source. */
function vendorModule(name: string): string | undefined {
  const spec = VENDOR_MODULES[name];
  return spec === undefined ? undefined : readFileSync(fileURLToPath(import.meta.resolve(spec)), 'utf8');
}

/** Explorer routes. */
export function explorerRoutes(): Hono {
  const app = new Hono();
  serve(app, E.get, (c) => {
    const page = present(files('index.html'), 'the explorer page');
    return c.body(page.body, 200, pageHeaders(page.body));
  });
  serve(app, E.getExplorerFile, (c, { params }) => {
    const name = params.file;
    const f = name === 'index.html' ? undefined : files(name);
    return f ? c.body(f.body, 200, assetHeaders(f.type)) : notFound(`explorer file ${name.slice(0, 60)}`);
  });
  serve(app, E.getExplorerClientFile, (c, { params }) => {
    const name = params.file;
    const js = browserModule(name);
    return js === undefined ? notFound(`client module ${name.slice(0, 60)}`) : c.body(js, 200, assetHeaders(JS));
  });
  serve(app, E.getExplorerVendorFile, (c, { params }) => {
    const name = params.file;
    const js = vendorModule(name);
    return js === undefined ? notFound(`vendor module ${name.slice(0, 60)}`) : c.body(js, 200, assetHeaders(JS));
  });
  return app;
}
