/**
 * Web drive sites, releases and aliases: WEB_SITE_REGISTER, WEB_RELEASE_PUBLISH,
 * WEB_RELEASE_ACTIVATE and WEB_ALIAS_SET. Only a site's owner writes to it.
 */
import { WEB_ALIAS_SET, WEB_RELEASE_ACTIVATE, WEB_RELEASE_PUBLISH, WEB_SITE_REGISTER } from './storage.ts';
import { feeOf, payFee, refuse, txHandler } from '../handler.ts';
import { driveFile } from './webFiles.ts';
import { manifestProblem, manifestRoot, ownedSite, WEB_ALIASES, WEB_RELEASES, WEB_SITES } from './webRecords.ts';

/** WEB_SITE_REGISTER: a new site owned by the sender, once per siteId. */
export const siteRegister = txHandler(WEB_SITE_REGISTER, {
  check(tx, state) {
    if (state.get(WEB_SITES, tx.siteId)) refuse(`site ${tx.siteId} already exists`);
  },
  apply(tx, s, ctx) {
    s.put(WEB_SITES, tx.siteId, {
      siteId: tx.siteId,
      owner: tx.from,
      name: tx.name,
      releaseCount: 0,
      createdAt: ctx.timestamp,
      blockIndex: ctx.height,
    });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** WEB_RELEASE_PUBLISH: an immutable manifest of the site's complete files, its root checked. */
export const releasePublish = txHandler(WEB_RELEASE_PUBLISH, {
  check(tx, state) {
    ownedSite(state, tx.siteId, tx.from);
    if (state.get(WEB_RELEASES, tx.releaseId)) refuse(`release ${tx.releaseId} already exists`);
    const problem = manifestProblem(tx.manifest);
    if (problem) refuse(problem);
    for (const e of tx.manifest) {
      const file = driveFile(state, e.fileId);
      if (!file || file.siteId !== tx.siteId) refuse(`manifest ${e.path}: file ${e.fileId} is not a file of site ${tx.siteId}`);
      if (file.path !== e.path) refuse(`manifest ${e.path}: file ${e.fileId} was uploaded as ${file.path}`);
      if (file.status !== 'complete') refuse(`manifest ${e.path}: file ${e.fileId} is ${file.status}, not complete`);
    }
    const root = manifestRoot(tx.manifest);
    if (tx.merkleRoot !== root) refuse(`merkleRoot ${tx.merkleRoot} does not match the manifest's root ${root}`);
  },
  apply(tx, s, ctx) {
    const site = ownedSite(s, tx.siteId, tx.from);
    s.put(WEB_RELEASES, tx.releaseId, {
      releaseId: tx.releaseId,
      siteId: tx.siteId,
      seq: site.releaseCount,
      merkleRoot: tx.merkleRoot,
      manifest: tx.manifest.map((e) => ({ path: e.path, fileId: e.fileId })),
      publishedAt: ctx.timestamp,
      blockIndex: ctx.height,
      txHash: tx.hash,
    });
    s.put(WEB_SITES, site.siteId, { ...site, releaseCount: site.releaseCount + 1 });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** WEB_RELEASE_ACTIVATE: points the site at one of its releases whose files are all still there. */
export const releaseActivate = txHandler(WEB_RELEASE_ACTIVATE, {
  check(tx, state) {
    ownedSite(state, tx.siteId, tx.from);
    const release = state.get(WEB_RELEASES, tx.releaseId);
    if (!release || release.siteId !== tx.siteId) refuse(`release ${tx.releaseId} is not a release of site ${tx.siteId}`);
    for (const e of release.manifest) {
      // A rollback to a release whose file was deleted since could not be served whole.
      if (driveFile(state, e.fileId)?.status !== 'complete') refuse(`release ${tx.releaseId}: file ${e.path} was deleted`);
    }
  },
  apply(tx, s, ctx) {
    const site = ownedSite(s, tx.siteId, tx.from);
    s.put(WEB_SITES, site.siteId, { ...site, activeReleaseId: tx.releaseId });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** WEB_ALIAS_SET: first come; the alias's owner may point it at any of their sites. */
export const aliasSet = txHandler(WEB_ALIAS_SET, {
  check(tx, state) {
    ownedSite(state, tx.siteId, tx.from);
    const taken = state.get(WEB_ALIASES, tx.alias);
    if (taken && taken.owner !== tx.from) refuse(`alias ${tx.alias} belongs to ${taken.owner}`);
  },
  apply(tx, s, ctx) {
    s.put(WEB_ALIASES, tx.alias, { alias: tx.alias, siteId: tx.siteId, owner: tx.from, setAt: ctx.timestamp, blockIndex: ctx.height });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});
