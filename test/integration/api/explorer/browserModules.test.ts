/**
 * The modules the explorer loads: every module the page and its shared worker import at run
 * time (types stripped) is served too, at the URL it is imported by, so the page never asks for
 * one it cannot get; api/explorerTxTables.ts is served as the values it exports (/explorer/txTables.ts). Runs without a browser (the
 * browser test needs Chromium).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onError } from '../../../../api/errors.ts';
import {
  BROWSER_CLIENT_MODULES,
  browserModule,
  EXPLORER_MODULES,
  explorerRoutes,
} from '../../../../api/resources/operator/explorerRoutes.ts';
import * as TX_TABLES from '../../../../api/explorerTxTables.ts';

/** Every import specifier of a module's text. */
const importsOf = (js: string) =>
  [...js.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'/g)].map((m) => m[1] ?? m[2]);

test("every module the explorer's page and its worker import is served where they import it from", async () => {
  const app = explorerRoutes();
  app.onError((err, c) => onError(err, c));
  const reached = new Set<string>();
  const visit = async (path: string): Promise<void> => {
    if (reached.has(path)) return;
    reached.add(path);
    const res = await app.request(path);
    assert.equal(res.status, 200, `${path} is imported but not served`);
    assert.match(res.headers.get('content-type') ?? '', /^text\/javascript/, path);
    if (path.startsWith('/explorer/vendor/')) return;
    const js = await res.text();
    for (const spec of importsOf(js)) {
      assert.match(
        spec,
        /^(\.\/|\/explorer\/)/,
        `${path} imports ${spec}: not a URL the browser (or a worker, without an import map) can load`,
      );
      await visit(new URL(spec, `http://node${path}`).pathname);
    }
  };
  await visit('/explorer/app.ts');
  await visit('/explorer/liveWorker.ts');
  for (const name of EXPLORER_MODULES) assert.ok(reached.has(`/explorer/${name}`), `${name} is served but nothing imports it`);
  assert.ok(reached.has('/explorer/core/ombraAmount.ts') && reached.has('/explorer/client/browser.ts'), [...reached].join());
  // core/ serves its browser-safe modules only; the registry stays on the server.
  for (const name of ['tx/registry.ts', 'registry.ts', 'genesis.ts'])
    assert.equal((await app.request(`/explorer/core/${name}`)).status, 404, name);
});

test("the explorer's registry tables reach the browser as their values, computed from the registry on the server", async () => {
  const js = browserModule('txTables.ts', '') ?? '';
  assert.doesNotMatch(js, /registry|import/);
  const served = await import(`data:text/javascript,${encodeURIComponent(js)}`);
  assert.deepEqual({ ...served }, { ...TX_TABLES });
  assert.ok(TX_TABLES.TX_TYPES.includes('TRANSFER') && TX_TABLES.RECIPIENT_FIELDS.TRANSFER[0] === 'to');
});

test('every relative import of a served client module is served', () => {
  const reached = new Set<string>();
  const visit = (name: string) => {
    if (reached.has(name)) return;
    const js = browserModule(name);
    assert.ok(js !== undefined, `${name} is imported by a served module but not served`);
    reached.add(name);
    for (const m of js.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'\.\/([^']+)'/g)) visit(m[1]);
  };
  visit('browser.ts');
  assert.ok(reached.has('reads.ts') && reached.has('routes.ts'), [...reached].join());
  for (const name of reached) assert.ok(BROWSER_CLIENT_MODULES.includes(name), name);
});

test('served client modules import nothing by a bare name: a worker, which has no import map, loads them too', () => {
  for (const name of BROWSER_CLIENT_MODULES) {
    const js = browserModule(name) ?? '';
    const bare = [...js.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/g)]
      .map((m) => m[1])
      .filter((s) => !/^(\.\/|\/)/.test(s));
    assert.deepEqual(bare, [], name);
  }
  assert.match(browserModule('subscribe.ts') ?? '', /from '\/explorer\/vendor\/eventsource-parser\.js'/);
});

test('the chart library and its style are served from node_modules with their types; other names are 404', async () => {
  const app = explorerRoutes();
  app.onError((err, c) => onError(err, c));
  const js = await app.request('/explorer/vendor/uPlot.js');
  assert.equal(js.status, 200);
  assert.match(js.headers.get('content-type') ?? '', /^text\/javascript/);
  assert.match(await js.text(), /export \{ uPlot as default \}|export default uPlot/);
  const css = await app.request('/explorer/vendor/uPlot.css');
  assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
  for (const name of ['uPlot.d.ts', 'constructor', '__proto__', 'package.json'])
    assert.equal((await app.request(`/explorer/vendor/${name}`)).status, 404, name);
});
