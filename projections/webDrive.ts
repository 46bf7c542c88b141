/**
 * The web drive's read model beside its consensus records: each site's releases in publication
 * order, rows `r!<siteId>!<seq, 8 digits>` -> releaseId, so a site's release list is one range
 * read (newest first in reverse) however many sites and releases the chain holds. Releases are
 * immutable: a row is written once, in the block that published it.
 */
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { rowGroup } from './rows.ts';

/** `r!<siteId>!<seq, 8 digits>` -> releaseId: a site's releases in order (siteIds hold no `!`). */
export const siteReleaseRows = rowGroup<string, string, number>(
  (siteId) => `r!${siteId}!`,
  (seq) => seq.toString().padStart(8, '0'),
);

/** Releases by site. */
export const webDriveProjection: Projection<null> = {
  name: 'webDrive',
  version: 1,
  init: () => null,
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    for (const r of ev.diff.records.webReleases.values()) ops.push(siteReleaseRows.put(r.siteId, r.seq, r.releaseId));
    return { state, ops };
  },
};
