/** The drive's lists for the explorer over the recorded simulated chain: every site, a release's files, with counts. */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { assertError, get, withChain } from '../../helpers/apiSupport.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);
const txs: Record<string, any>[] = lines.slice(2).flatMap((b: { transactions: Record<string, any>[] }) => b.transactions);

test('every registered site is listed, newest first, with the count; a release lists its manifest', () =>
  withChain(
    async (c) => {
      for (const b of lines.slice(2)) await c.node.importBlock(b);
      const registered = txs.filter((x) => x.type === 'WEB_SITE_REGISTER').map((x) => x.siteId);
      const res = (await get(c, '/api/web/sites')).body;
      assert.equal(res.count, registered.length);
      assert.deepEqual(
        res.sites.map((s: any) => s.siteId),
        [...registered].reverse(),
      );
      const site = c.node.state().records.webSites.get(registered[0]);
      assert.deepEqual(res.sites[0], {
        siteId: site?.siteId,
        owner: site?.owner,
        name: site?.name,
        activeReleaseId: site?.activeReleaseId ?? null,
        releaseCount: site?.releaseCount,
        createdAt: site?.createdAt,
        blockIndex: site?.blockIndex,
      });
      assert.deepEqual((await get(c, '/api/web/sites?offset=1')).body, { count: registered.length, sites: [] });

      const publish = txs.find((x) => x.type === 'WEB_RELEASE_PUBLISH') as Record<string, any>;
      const release = (await get(c, `/api/web/release/${publish.releaseId}`)).body;
      assert.deepEqual([release.siteId, release.merkleRoot, release.count], [publish.siteId, publish.merkleRoot, publish.manifest.length]);
      assert.deepEqual(release.files, publish.manifest);
      assert.deepEqual((await get(c, `/api/web/release/${publish.releaseId}?limit=1&offset=${publish.manifest.length}`)).body.files, []);
      assertError(await get(c, '/api/web/release/no-such-release'), 404, 'NOT_FOUND');
    },
    { genesis },
  ));
