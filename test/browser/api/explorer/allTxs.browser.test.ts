/**
 * The explorer's all-transactions page (#/txs) pages through the whole history, not a window of
 * recent blocks: on a chain whose first transactions lie more than 1,000 blocks below the head,
 * it counts every transaction and its last page lists the very first ones. The address page's
 * date filter picks transactions by the day their block recorded them, and says so.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { launchChromium, type Chromium } from '../../../helpers/chromium.ts';
import { settled } from '../../../helpers/explorerRig.ts';
import { missing } from '../../../helpers/skip.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../../helpers/testChain.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const location: { hash: string };

const DAY = 86_400_000;
const A = (i: number) => DEV_KEYS[i].address;

let c: TestChain;
let server: Server;
let url = '';
let chromium: Chromium | null = null;
/** Hashes: block 1's (in block order), the late one (signed a day before its block), the newest. */
const hashes: { first: string[]; late: string; newest: string } = { first: [], late: '', newest: '' };
let lateBlockTime = 0;

before(async () => {
  // Started in the past, so that 1,100 one-second blocks and a day's gap still end before now.
  c = await openTestChain({ clock: Date.now() - 3 * DAY });
  // Block 1: two from A(1), then 24 from others: more than a page (25) before anything else.
  for (let i = 0; i < 26; i++) {
    const tx = c.transfer(i < 2 ? 1 : 3 + (i % 6), A(2), 1n);
    await c.node.submitTx(tx);
    hashes.first.push(String(tx.hash));
  }
  await c.produce();
  const late = c.transfer(1, A(4), 5n);
  await c.node.submitTx(late);
  hashes.late = String(late.hash);
  c.advance(DAY);
  await c.produce();
  lateBlockTime = c.now();
  await c.produce(1100);
  const newest = c.transfer(2, A(5), 7n);
  await c.node.submitTx(newest);
  hashes.newest = String(newest.hash);
  await c.produce();
  server = createServer(getRequestListener(c.app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  url = `http://127.0.0.1:${(address satisfies AddressInfo).port}`;
  if (!missing('chromium')) chromium = await launchChromium('the all-transactions page');
});

after(async () => {
  await chromium?.close();
  await new Promise<void>((r) => {
    server?.close(() => r());
    server?.closeAllConnections();
  });
  await c?.destroy();
});

/** The text of every cell of the page's table rows, row by row. */
async function rows(c: Chromium): Promise<string[][]> {
  return (await c.page.locator('.paged table tbody tr').allInnerTexts()).map((r) => r.split('\t'));
}

/** Loads the explorer at `hash` as a fresh document and waits until it has rendered. */
async function show(c: Chromium, hash: string): Promise<void> {
  await c.page.goto('about:blank');
  await c.page.goto(`${url}/${hash}`);
  await settled(c.page);
}

test('#/txs counts every transaction and pages back to the first ones, 1,100 blocks below the head', {
  skip: missing('chromium'),
}, async () => {
  assert.ok(chromium, 'Chromium started');
  await show(chromium, '#/txs');
  const count = () => chromium?.page.locator('.pager .count').first().textContent();
  assert.equal(await count(), '1–25 of 28');
  const first = await rows(chromium);
  assert.equal(first.length, 25);
  assert.ok(first[0][0].includes(hashes.newest.slice(0, 8)), `newest first: ${first[0][0]}`);
  assert.ok(first[1][0].includes(hashes.late.slice(0, 8)), `then the late one: ${first[1][0]}`);
  await chromium.page.getByRole('link', { name: 'Next page' }).first().click();
  await chromium.page.waitForFunction(() => location.hash.includes('page=2'));
  // The hash moves before the router renders the page it names: until then the view shows page 1
  // and reads as settled (a CI run saw "1–25 of 28" here), so wait for the pager of page 2.
  await chromium.page.locator('.pager .count', { hasText: /^26–/ }).first().waitFor({ timeout: 20_000 });
  await settled(chromium.page);
  assert.equal(await count(), '26–28 of 28');
  const last = await rows(chromium);
  assert.deepEqual(
    last.map((r) => r[2]),
    ['#1', '#1', '#1'],
  );
  // Block 1's first three, newest first.
  hashes.first
    .slice(0, 3)
    .reverse()
    .forEach((h, i) => assert.ok(last[i][0].includes(h.slice(0, 8)), `${last[i][0]} is ${h}`));
  assert.deepEqual(chromium.errors, []);
});

test("the address page filters by the block's day and says so", { skip: missing('chromium') }, async () => {
  assert.ok(chromium, 'Chromium started');
  const day = new Date(lateBlockTime).toISOString().slice(0, 10);
  await show(chromium, `#/address/${A(1)}?since=${day}`);
  const note = await chromium.page.locator('#filter-note').textContent();
  assert.match(note ?? '', /block's time/);
  const shown = await rows(chromium);
  // The late transaction was signed the day before, but recorded on `day`: it is in, the first two are not.
  assert.equal(shown.length, 1, JSON.stringify(shown));
  assert.ok(shown[0][0].includes(hashes.late.slice(0, 8)));
  await show(chromium, `#/address/${A(1)}`);
  assert.equal((await rows(chromium)).length, 3, 'unfiltered: all three of A(1)');
});
