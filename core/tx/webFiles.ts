/**
 * Web drive files: WEB_FILE_DELETE (and the upload types). A file reserves its `totalBytes` of
 * its owner's storage from WEB_FILE_INIT until WEB_FILE_DELETE frees exactly those bytes.
 */
import { WEB_FILE_DELETE } from './storage.ts';
import { feeOf, payFee, refuse, txHandler } from './handler.ts';
import { manifestLookup, ownedSite, WEB_FILES, WEB_RELEASES } from './webRecords.ts';

/** WEB_FILE_DELETE: frees the file's bytes, refused while the site's active release names it. */
export const fileDelete = txHandler(WEB_FILE_DELETE, {
  cost: (tx) => ({ balance: feeOf(tx), storage: 0n }),
  check(tx, state) {
    const file = state.get(WEB_FILES, tx.fileId);
    if (!file || file.status === 'deleted') refuse(`file ${tx.fileId} does not exist`);
    const site = ownedSite(state, file.siteId, tx.from);
    const active = site.activeReleaseId ? state.get(WEB_RELEASES, site.activeReleaseId) : undefined;
    if (active && manifestLookup(active.manifest, file.path) === file.fileId)
      refuse(`file ${tx.fileId} is in the active release ${active.releaseId} of site ${site.siteId}`);
  },
  apply(tx, s, ctx) {
    const file = s.get(WEB_FILES, tx.fileId);
    if (!file) refuse(`file ${tx.fileId} does not exist`);
    s.put(WEB_FILES, file.fileId, { ...file, status: 'deleted' });
    s.account(file.owner).storageUsed -= BigInt(file.totalBytes);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});
