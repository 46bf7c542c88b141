/**
 * Every page type of the explorer in headless Chromium against a live node holding the
 * simulated chain: each loads its heading with no console errors and no raw millisecond
 * times, lists page with counts, and at 390 px the page itself never scrolls sideways (wide
 * tables scroll in their own box). (That every field of every transaction type has a way to be
 * shown is a unit test: test/unit/api/explorer/fields.test.ts. The screenshots of every page type at both widths are pageTypes.browser.ts's.) Run by
 * explorer.browser.test.ts on the shared rig, in a tab of its own.
 */
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';

import { literal } from '../../../helpers/literal.ts';
import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { SignedTx } from '../../../../core/tx/handler.ts';
import type { Tab } from '../../../helpers/chromium.ts';
import type { SharedRig } from '../../../helpers/explorerRig.ts';
import type { LiveNode } from '../../../helpers/liveNode.ts';

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;

/** The page-by-page suite, in a tab of its own on the shared rig (run by the caller). */
export function explorerPagesSuite(shared: SharedRig): void {
  describe('every explorer page in Chromium', { skip: missing('chromium') }, () => {
    let live: LiveNode;
    // The suite's tab and the console errors seen in it; null where Chromium is not installed (outside CI).
    let chromium: Tab | null = null;
    let page: Page;

    before(async () => {
      const rig = await shared.get();
      assert.ok(rig, 'Chromium and the rig started');
      live = rig.live;
      chromium = await rig.chromium.tab();
      page = chromium.page;
    });

    after(async () => {
      await chromium?.page.close();
    });

    /** The first transaction of `type` in the fixture chain. */
    const first = (type: string): Record<string, any> => {
      const tx = live.blocks.flatMap((b) => b.transactions).find((x: SignedTx) => x.type === type);
      assert.ok(tx, `the simulated chain has a ${type}`);
      return tx as Record<string, any>;
    };

    /** Every page type: its route and a text its heading holds. */
    function pageTypes(): [string, string][] {
      const reply = live.blocks.flatMap((b) => b.transactions).find((x: any) => x.type === 'SOCIAL_POST_CREATE' && x.parentPostId) as any;
      const post = reply ?? first('SOCIAL_POST_CREATE');
      const miner = createHash('sha256').update(first('MINER_REGISTER').hash, 'utf8').digest('hex');
      const transfer = first('TRANSFER');
      return [
        ['blocks', 'Blocks'],
        ['block/5', 'Block #5'],
        [`tx/${transfer.hash}`, 'Transaction'],
        [`tx/${first('TASK_REWARD').hash}`, 'Transaction'],
        [`tx/${first('SOCIAL_REACTION_SET').hash}`, 'Transaction'],
        ['mempool', 'Mempool'],
        ['accounts', 'Top accounts'],
        [`address/${transfer.from}`, 'Address'],
        ['tasks', 'Tasks'],
        [`task/${first('TASK_VALIDATE').taskId}`, 'Task'],
        ['runs', 'Agent runs'],
        [`runs/?submitter=${first('AGENT_REQUEST').from}`, 'Agent runs'],
        [`run/${first('AGENT_FINISH').agentRunId}`, 'Agent run'],
        [`conversation/${first('CHAT_TURN').conversationId}`, 'Conversation'],
        [`conversations/${first('CHAT_TURN').from}`, 'Conversations of'],
        ['miners', 'Miners'],
        ['leaderboard', 'Leaderboard'],
        [`miner/${miner}`, 'Miner'],
        ['gallery/art', 'Art NFTs'],
        ['gallery/image', 'Image NFTs'],
        [`gallery/audio/?owner=${first('AUDIO_MINT').owner}`, 'Audio NFTs of'],
        [`nft/${first('ART_MINT').tokenId}`, 'Art NFT'],
        [`image/${first('IMAGE_MINT').tokenId}`, 'Image NFT'],
        [`audio/${first('AUDIO_MINT').tokenId}`, 'Audio NFT'],
        ['feed', 'Social feed'],
        [`post/${post.postId}`, 'Post'],
        [`posts/${post.from}`, 'Posts by'],
        [`profile/${first('SOCIAL_PROFILE_SET').from}`, 'Profile'],
        [`follows/${first('SOCIAL_FOLLOW_SET').from}`, 'Follows of'],
        [`followers/${first('SOCIAL_FOLLOW_SET').targetAddress}`, 'Followers of'],
        [`queue/${first('SOCIAL_LIKE_INTENT').author}`, 'Funded likes for'],
        [`intent/${first('SOCIAL_LIKE_INTENT').hash}`, 'Funded like'],
        [`dms/${first('SOCIAL_DM_SEND').from}`, 'Direct messages of'],
        ['sites', 'Web drives'],
        [`site/${first('WEB_SITE_REGISTER').siteId}`, 'Site'],
        [`release/${first('WEB_RELEASE_PUBLISH').releaseId}`, 'Release'],
        [`file/${first('WEB_FILE_CHUNK').fileId}`, 'File'],
        [`alias/${first('WEB_ALIAS_SET').alias}`, 'Alias'],
      ];
    }

    /** Opens a route and waits for its heading (a page that failed says so in `.error`). */
    async function open(route: string, heading: string) {
      // A hash change keeps the document: empty the view so the old page's heading cannot answer.
      if (page.url().startsWith(live.url)) await page.evaluate(() => document.getElementById('view').replaceChildren());
      await page.goto(`${live.url}/#/${route}`);
      await page.waitForFunction(() => document.querySelector('main h1, main .error'));
      const h1 = await page.evaluate(
        () => document.querySelector('main h1')?.textContent ?? document.querySelector('main .error')?.textContent,
      );
      assert.ok(String(h1).startsWith(heading), `#/${route}: the heading is "${h1}", not "${heading}…"`);
    }

    test('every page type loads with no console errors and shows no raw millisecond times', { skip: missing('chromium') }, async () => {
      assert.ok(chromium, 'Chromium and the rig started');
      for (const [route, heading] of pageTypes()) {
        await open(route, heading);
        // The text as shown: a closed <details> (the raw JSON) is not read.
        // biome-ignore lint/performance/useDomNodeTextContent: textContent would read hidden text too
        const text: string = await page.evaluate(() => document.querySelector('main').innerText);
        assert.doesNotMatch(text, /\b1[0-9]{12}\b/, `#/${route} shows a raw millisecond time`);
      }
      assert.deepEqual(chromium.errors, []);
    });

    test('at 390 px no page is wider than the screen', { skip: missing('chromium') }, async () => {
      assert.ok(chromium, 'Chromium and the rig started');
      await page.setViewportSize({ width: 390, height: 844 });
      try {
        for (const [route, heading] of pageTypes()) {
          await open(route, heading);
          const width = await page.evaluate(() => document.querySelector('main').scrollWidth);
          assert.ok(width <= 390, `#/${route} is ${width} px wide at 390 px`);
        }
      } finally {
        await page.setViewportSize({ width: 1280, height: 900 });
      }
      assert.deepEqual(chromium.errors, []);
    });

    test('the block page links its neighbours and counts confirmations; the transaction page decodes with units', {
      skip: missing('chromium'),
    }, async () => {
      assert.ok(chromium, 'Chromium and the rig started');
      await open('block/5', 'Block #5');
      assert.ok(await page.isVisible('a[rel="prev"][href="#/block/4"]'));
      assert.ok(await page.isVisible('a[rel="next"][href="#/block/6"]'));
      assert.ok(await page.isVisible('th:has-text("Confirmations")'));
      assert.ok(await page.isVisible('button.copy[aria-label="Copy block hash"]'));
      const transfer = first('TRANSFER');
      await open(`tx/${transfer.hash}`, 'Transaction');
      assert.ok(await page.isVisible(`a.id:has-text("${transfer.to}")`), 'the full recipient address');
      const title = await page.evaluate(() => document.querySelector('.amount')?.title);
      assert.match(title, /micro-OMBRA$/);
      assert.match(String(await page.textContent('.when')), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(\d+ (s|min|h|d) ago\)$/);
    });

    test('the address page pages its transactions with direction, counterparty and age', { skip: missing('chromium') }, async () => {
      assert.ok(chromium, 'Chromium and the rig started');
      const busiest = new Map<string, number>();
      for (const tx of live.blocks.flatMap((b) => b.transactions)) busiest.set(tx.from, (busiest.get(tx.from) ?? 0) + 1);
      const [address] = [...busiest].sort((a, b) => b[1] - a[1])[0];
      await open(`address/${address}`, 'Address');
      for (const col of ['direction', 'counterparty', 'value', 'age']) assert.ok(await page.isVisible(`th:has-text("${col}")`), col);
      const count = String(await page.textContent('.pager .count'));
      assert.ok(Number(/^1–25 of (\d+)/.exec(count)?.[1]) > 25, count);
      // A like (SOCIAL_REACTION_SET) names the liked post's author as its counterparty.
      const likeRow = page.locator('tr:has(.badge:text-is("SOCIAL_REACTION_SET"))').first();
      assert.match(String(await likeRow.locator('td:nth-child(6) a').getAttribute('href')), /^#\/address\/ox[0-9a-f]{40}$/);
      await page.locator('a[aria-label="Next page"]').first().click();
      await page.waitForFunction(() => /^26–/.test(document.querySelector('.pager .count')?.textContent ?? ''));
      assert.deepEqual(chromium.errors, []);
    });

    test('search opens the page of every kind of hit', { skip: missing('chromium') }, async () => {
      assert.ok(chromium, 'Chromium and the rig started');
      await page.goto(`${live.url}/`);
      // The hit types of GET /api/chain/search, each with the fields its page needs.
      const hits = [
        { type: 'block', data: { index: 5 } },
        { type: 'tx', data: { hash: 'a'.repeat(64), type: 'TRANSFER' } },
        { type: 'address', data: { address: `ox${'b'.repeat(40)}` } },
        { type: 'task', data: { taskId: 'task-0001' } },
        { type: 'run', data: { agentRunId: 'c'.repeat(64) } },
        { type: 'conversation', data: { conversationId: 'd'.repeat(64) } },
        { type: 'nft', data: { kind: 'art', tokenId: 'e'.repeat(64) } },
        { type: 'nft', data: { kind: 'image', tokenId: 'e'.repeat(64) } },
        { type: 'nft', data: { kind: 'audio', tokenId: 'e'.repeat(64) } },
        { type: 'post', data: { postId: 'p-1' } },
        { type: 'profile', data: { address: `ox${'b'.repeat(40)}`, displayName: 'x' } },
        { type: 'site', data: { siteId: 'site-1' } },
        { type: 'alias', data: { alias: 'my-site' } },
        { type: 'release', data: { releaseId: 'r1' } },
        { type: 'file', data: { fileId: 'f'.repeat(64) } },
        { type: 'miner', data: { id: '1'.repeat(64), name: 'm' } },
        { type: 'dm', data: { dmId: 'dm-1', from: `ox${'b'.repeat(40)}` } },
      ];
      // Search through the real search page, its client answering the one hit.
      const routes: [string, string | null, boolean][] = await page.evaluate(
        async ([url, hits]) => {
          const m: any = await import(url);
          const out: [string, string | null, boolean][] = [];
          for (const h of hits as any[]) {
            let target: string | null = null;
            const pages = m.explorerPages({ search: async () => [h] }, (t: string) => {
              target = t;
            });
            await pages.search('q');
            out.push([h.type, target, target !== null && (target as string).split('/')[0] in pages]);
          }
          return out;
        },
        ['/explorer/pages.ts', hits] as const,
      );
      for (const [type, target, known] of routes) assert.ok(known, `a ${type} hit opens ${target}, which is no page`);
      assert.deepEqual(routes.find(([t]) => t === 'dm')?.[1], `dms/ox${'b'.repeat(40)}`);
      assert.deepEqual(
        routes.filter(([t]) => t === 'nft').map(([, r]) => r?.split('/')[0]),
        ['nft', 'image', 'audio'],
      );
    });

    test('a conversation counts all its turns, not the page', { skip: missing('chromium') }, async () => {
      assert.ok(chromium, 'Chromium and the rig started');
      const id = first('CHAT_TURN').conversationId;
      const turns = live.blocks.flatMap((b) => b.transactions).filter((x: any) => x.type === 'CHAT_TURN' && x.conversationId === id);
      await open(`conversation/${id}`, 'Conversation');
      assert.match(String(await page.textContent('.pager .count')), literal(new RegExp(` of ${turns.length}$`)));
    });
  });
}
