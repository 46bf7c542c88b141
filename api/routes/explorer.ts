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
import { assetAnswer, pageHeaders, staticDir, staticFile, type StaticFile, versionedPage } from '../staticFiles.ts';

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
const clientFiles = new Map<string, StaticFile>();

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

/** A client module as a static file (stripped once, then kept). */
function clientFile(name: string): StaticFile | undefined {
  let f = clientFiles.get(name);
  if (!f) {
    const js = browserModule(name);
    if (js === undefined) return undefined;
    f = staticFile(js, JS);
    clientFiles.set(name, f);
  }
  return f;
}

/** A vendored file's text and type, read once and kept. */
const vendored = new Map<string, StaticFile>();
function vendorFile(name: string): StaticFile | undefined {
  const spec = Object.hasOwn(VENDOR_FILES, name) ? VENDOR_FILES[name] : undefined;
  if (spec === undefined) return undefined;
  let f = vendored.get(name);
  if (!f) {
    f = staticFile(readFileSync(fileURLToPath(import.meta.resolve(spec)), 'utf8'), name.endsWith('.css') ? CSS : JS);
    vendored.set(name, f);
  }
  return f;
}

/** The explorer page with every file it names, and every module import, at its version (built once). */
let page: { body: string; headers: Record<string, string> } | undefined;
function explorerPage(): { body: string; headers: Record<string, string> } {
  if (!page) {
    const versions = new Map<string, string>();
    for (const name of files.names) if (name !== 'index.html') versions.set(`/explorer/${name}`, present(files(name), name).version);
    for (const name of BROWSER_CLIENT_MODULES) versions.set(`/explorer/client/${name}`, present(clientFile(name), name).version);
    for (const name of Object.keys(VENDOR_FILES)) versions.set(`/explorer/vendor/${name}`, present(vendorFile(name), name).version);
    const body = versionedPage(present(files('index.html'), 'the explorer page').body, versions);
    page = { body, headers: pageHeaders(body) };
  }
  return page;
}

/** Explorer routes. */
export function explorerRoutes(): Hono {
  const app = new Hono();
  serve(app, E.get, (c) => {
    const p = explorerPage();
    return c.body(p.body, 200, p.headers);
  });
  serve(app, E.getExplorerFile, (c, { params }) => {
    const name = params.file;
    const f = name === 'index.html' ? undefined : files(name);
    return f ? assetAnswer(c, f) : notFound(`explorer file ${name.slice(0, 60)}`);
  });
  serve(app, E.getExplorerClientFile, (c, { params }) => {
    const name = params.file;
    const f = clientFile(name);
    return f === undefined ? notFound(`client module ${name.slice(0, 60)}`) : assetAnswer(c, f);
  });
  serve(app, E.getExplorerVendorFile, (c, { params }) => {
    const name = params.file;
    const f = vendorFile(name);
    return f === undefined ? notFound(`vendor file ${name.slice(0, 60)}`) : assetAnswer(c, f);
  });
  return app;
}
