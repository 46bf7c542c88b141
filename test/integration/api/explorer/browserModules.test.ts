/**
 * The client modules the explorer loads: every module a served client module imports at run
 * time (types stripped) is served too, so the page never asks for one it cannot get. Runs
 * without a browser (the browser test needs Chromium).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onError } from '../../../../api/errors.ts';
import { BROWSER_CLIENT_MODULES, browserModule, explorerRoutes } from '../../../../api/routes/explorer.ts';

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
