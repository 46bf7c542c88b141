/**
 * The live explorer at GET /, served from files in the repo (api/explorer/), no build step: its
 * TypeScript modules (api/explorer/*.ts, type-checked with the DOM and WebWorker libraries by
 * `npm run typecheck`) at /explorer/, the browser part of the typed client (client/*.ts) at
 * /explorer/client/ and core's browser-safe modules (OMBRA amounts) at /explorer/core/, each
 * with its types stripped by Node's own `module.stripTypeScriptTypes` (one source for Node and
 * browser; stripped once, then kept). Their imports are pointed at those URLs (`../../client/x.ts`
 * at /explorer/client/x.ts; bare names of third-party modules at /explorer/vendor/, since workers
 * have no import map), and third-party files come from node_modules at /explorer/vendor/:
 * eventsource-parser and the uPlot chart library. One module, api/explorerTxTables.ts, is evaluated here
 * instead (it reads core's transaction registry) and served as its exported values.
 */
import { present } from '../../../core/errors.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { resource } from '../../endpoints/endpoint.ts';
import { EXPLORER_ENDPOINTS as E } from './operatorEndpoints.ts';
import { notFound } from '../../errors.ts';
import { assetAnswer, pageHeaders, staticDir, staticFile, type StaticFile, versionedPage } from '../../staticFiles.ts';
import * as TX_TABLES from '../../explorerTxTables.ts';

/** The client modules a browser may load: the browser-safe import graph of client/browser.ts. */
export const BROWSER_CLIENT_MODULES: readonly string[] = ['browser.ts', 'http.ts', 'reads.ts', 'routes.ts', 'subscribe.ts', 'types.ts'];
/** The modules of core/ a browser may load (pure, no imports). */
const BROWSER_CORE_MODULES: readonly string[] = ['ombraAmount.ts'];
/** The module served to the explorer as the values it exports, computed here (from core's registry): api/explorerTxTables.ts. */
const EVALUATED = 'txTables.ts';
/** Third-party browser files: name → module specifier (resolved to its ESM build or file). */
const VENDOR_FILES: Readonly<Record<string, string>> = {
  'eventsource-parser.js': 'eventsource-parser',
  'uPlot.js': 'uplot/dist/uPlot.esm.js',
  'uPlot.css': 'uplot/dist/uPlot.min.css',
};
/** The bare specifiers a client module may import, and where the browser finds them. */
const BARE_IMPORTS: Readonly<Record<string, string>> = {
  'eventsource-parser': '/explorer/vendor/eventsource-parser.js',
  uplot: '/explorer/vendor/uPlot.js',
};
/** Where the explorer's relative imports of the repo's other folders are served. */
const FOLDER_IMPORTS: Readonly<Record<string, string>> = {
  '../../client/': '/explorer/client/',
  '../../core/': '/explorer/core/',
  '../explorerTxTables.ts': `/explorer/${EVALUATED}`,
};
const CSS = 'text/css; charset=utf-8';

const JS = 'text/javascript; charset=utf-8';
const EXPLORER = new URL('../../explorer/', import.meta.url);
const files = staticDir(EXPLORER);
/** The explorer's own modules. */
export const EXPLORER_MODULES: readonly string[] = readdirSync(EXPLORER).filter((n) => /^[A-Za-z0-9_]+\.ts$/.test(n));
const stripped = new Map<string, string>();
const moduleFiles = new Map<string, StaticFile>();

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

/** A folder a browser loads TypeScript modules from: '' for the explorer's own (/explorer/), else /explorer/<folder>/. */
type ModuleFolder = '' | 'client' | 'core';
const FOLDERS = ['', 'client', 'core'] as const satisfies readonly ModuleFolder[];
/** Each folder's place in the repo and the modules of it that are served. */
const MODULE_FOLDERS: Readonly<Record<ModuleFolder, { dir: URL; names: readonly string[] }>> = {
  '': { dir: EXPLORER, names: [...EXPLORER_MODULES, EVALUATED] },
  client: { dir: new URL('../../../client/', import.meta.url), names: BROWSER_CLIENT_MODULES },
  core: { dir: new URL('../../../core/', import.meta.url), names: BROWSER_CORE_MODULES },
};

/** api/explorerTxTables.ts as the browser gets it (/explorer/txTables.ts): the values it exports. */
function evaluatedTables(): string {
  return Object.entries(TX_TABLES)
    .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};\n`)
    .join('');
}

/** A served import specifier: the repo's other folders and third-party names at the URLs they are served from. */
function servedSpecifier(spec: string): string {
  const bare = Object.hasOwn(BARE_IMPORTS, spec) ? BARE_IMPORTS[spec] : undefined;
  if (bare) return bare;
  for (const [from, to] of Object.entries(FOLDER_IMPORTS)) if (spec.startsWith(from)) return to + spec.slice(from.length);
  return spec;
}

/**
 * A module as the browser gets it (`folder` '' for the explorer's own, 'client' or 'core'): its
 * TypeScript types stripped and its imports pointed at where they are served; undefined for a
 * module not served.
 */
export function browserModule(name: string, folder: ModuleFolder = 'client'): string | undefined {
  const { dir, names } = MODULE_FOLDERS[folder];
  if (!names.includes(name)) return undefined;
  const key = `${folder}/${name}`;
  let js = stripped.get(key);
  if (js === undefined) {
    js =
      folder === '' && name === EVALUATED
        ? evaluatedTables()
        : stripTypes(readFileSync(new URL(name, dir), 'utf8')).replace(
            /((?:from|import)\s+)'([^']+)'/g,
            (_whole, from: string, spec: string) => `${from}'${servedSpecifier(spec)}'`,
          );
    stripped.set(key, js);
  }
  return js;
}

/** A module as a static file (stripped once, then kept). */
function moduleFile(name: string, folder: ModuleFolder): StaticFile | undefined {
  const key = `${folder}/${name}`;
  let f = moduleFiles.get(key);
  if (!f) {
    const js = browserModule(name, folder);
    if (js === undefined) return undefined;
    f = staticFile(js, JS);
    moduleFiles.set(key, f);
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
    for (const folder of FOLDERS)
      for (const name of MODULE_FOLDERS[folder].names) {
        const path = folder ? `/explorer/${folder}/${name}` : `/explorer/${name}`;
        versions.set(path, present(moduleFile(name, folder), path).version);
      }
    for (const name of Object.keys(VENDOR_FILES)) versions.set(`/explorer/vendor/${name}`, present(vendorFile(name), name).version);
    const body = versionedPage(present(files('index.html'), 'the explorer page').body, versions);
    page = { body, headers: pageHeaders(body) };
  }
  return page;
}

/** Explorer routes: every definition of EXPLORER_ENDPOINTS (./operatorEndpoints.ts). */
export function explorerRoutes(): Hono {
  return resource(E, {
    get: (c) => {
      const p = explorerPage();
      return c.body(p.body, 200, p.headers);
    },
    getExplorerFile: (c, { params }) => {
      const name = params.file;
      const f = name === 'index.html' ? undefined : name.endsWith('.ts') ? moduleFile(name, '') : files(name);
      return f ? assetAnswer(c, f) : notFound(`explorer file ${name.slice(0, 60)}`);
    },
    getExplorerClientFile: (c, { params }) => {
      const name = params.file;
      const f = moduleFile(name, 'client');
      return f === undefined ? notFound(`client module ${name.slice(0, 60)}`) : assetAnswer(c, f);
    },
    getExplorerCoreFile: (c, { params }) => {
      const name = params.file;
      const f = moduleFile(name, 'core');
      return f === undefined ? notFound(`core module ${name.slice(0, 60)}`) : assetAnswer(c, f);
    },
    getExplorerVendorFile: (c, { params }) => {
      const name = params.file;
      const f = vendorFile(name);
      return f === undefined ? notFound(`vendor file ${name.slice(0, 60)}`) : assetAnswer(c, f);
    },
  });
}
