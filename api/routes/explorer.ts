/**
 * The live explorer at GET /, served from files in the repo (api/explorer/): plain ES modules,
 * no build step. The browser part of the typed client (client/*.ts) is served from
 * /explorer/client/ with its types stripped by Node's own `module.stripTypeScriptTypes` (one
 * source for Node and browser; stripped once, then kept, its bare imports of third-party
 * modules pointed at /explorer/vendor/ since workers have no import map), and third-party
 * files from node_modules at /explorer/vendor/: eventsource-parser and the uPlot chart library.
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
/** Third-party browser files: name → module specifier (resolved to its ESM build or file). */
const VENDOR_FILES: Readonly<Record<string, string>> = {
  'eventsource-parser.js': 'eventsource-parser',
  'uPlot.js': 'uplot/dist/uPlot.esm.js',
  'uPlot.css': 'uplot/dist/uPlot.min.css',
};
/** The bare specifiers a client module may import, and where the browser finds them. */
const BARE_IMPORTS: Readonly<Record<string, string>> = { 'eventsource-parser': '/explorer/vendor/eventsource-parser.js' };
const CSS = 'text/css; charset=utf-8';

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
    js = stripTypes(readFileSync(new URL(`../../client/${name}`, import.meta.url), 'utf8')).replace(
      /(from\s+)'([^'./][^']*)'/g,
      (whole, from: string, spec: string) => (BARE_IMPORTS[spec] ? `${from}'${BARE_IMPORTS[spec]}'` : whole),
    );
    stripped.set(name, js);
  }
  return js;
}

/** A vendored file's text and type, read once and kept. */
const vendored = new Map<string, { body: string; type: string }>();
function vendorFile(name: string): { body: string; type: string } | undefined {
  const spec = Object.hasOwn(VENDOR_FILES, name) ? VENDOR_FILES[name] : undefined;
  if (spec === undefined) return undefined;
  let f = vendored.get(name);
  if (!f) {
    f = { body: readFileSync(fileURLToPath(import.meta.resolve(spec)), 'utf8'), type: name.endsWith('.css') ? CSS : JS };
    vendored.set(name, f);
  }
  return f;
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
    const f = vendorFile(name);
    return f === undefined ? notFound(`vendor file ${name.slice(0, 60)}`) : c.body(f.body, 200, assetHeaders(f.type));
  });
  return app;
}
