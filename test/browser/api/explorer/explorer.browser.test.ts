/**
 * The explorer in headless Chromium (Debian's chromium; .ci/run installs it, and under CI its
 * absence is a failure): every browser suite of the explorer, one after another on ONE rig
 * (test/helpers/explorerRig.ts): one node on the recorded `ombra simulate` chain, one Chromium and
 * one sampling of the explorer's pages, where each suite used to start its own. Each suite works
 * in a tab of its own; the live suite goes last, as it restarts the node.
 */
import { after } from 'node:test';
import { sharedExplorerRig } from '../../../helpers/explorerRig.ts';
import { a11ySuite } from './a11y.browser.ts';
import { explorerHomeSuite } from './explorerHome.browser.ts';
import { explorerPagesSuite } from './explorerPages.browser.ts';
import { lighthouseSuite } from './lighthouse.browser.ts';
import { liveExplorerSuite } from './liveExplorer.browser.ts';
import { pageTypesSuite } from './pageTypes.browser.ts';
import { themePhoneSuite } from './themePhone.browser.ts';

// The DevTools port is for Lighthouse, which drives the same browser over CDP in a tab it opens.
const rig = sharedExplorerRig('explorer browser suites', { devtools: true });
// Each suite is a `describe` block; node:test runs them in this order, one after the other.
pageTypesSuite(rig);
a11ySuite(rig);
explorerHomeSuite(rig);
explorerPagesSuite(rig);
lighthouseSuite(rig);
themePhoneSuite(rig);
liveExplorerSuite(rig);
// The suites' own `after` hooks close their tabs first; then the node and the browser stop.
after(() => rig.stop());
