/**
 * The client modules the explorer loads: every module a served client module imports at run
 * time (types stripped) is served too, so the page never asks for one it cannot get. Runs
 * without a browser (the browser test needs Chromium).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BROWSER_CLIENT_MODULES, browserModule } from '../../../api/routes/explorer.ts';

const t = suite('browser client modules');

t('every relative import of a served client module is served', () => {
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

t.run();
