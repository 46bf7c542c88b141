/**
 * The web drive's read model beside its consensus records: each site's releases in publication
 * order, rows `r!<siteId>!<seq, 8 digits>` -> releaseId, so a site's release list is one range
 * read (newest first in reverse) however many sites and releases the chain holds. Releases are
 * immutable: a row is written once, in the block that published it.
 */
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** Row key of release `seq` of `siteId`. */
function siteReleaseKey(siteId: string, seq: number): string {
  return `r!${siteId}!${seq.toString().padStart(8, '0')}`;
}

/** The key range of every release row of `siteId` (siteIds hold no `!`). */
export function siteReleaseRange(siteId: string): { gte: string; lt: string } {
  return { gte: `r!${siteId}!`, lt: `r!${siteId}"` };
}

/** Releases by site. */
export const webDriveProjection: Projection<null> = {
  name: 'webDrive',
  version: 1,
  init: () => null,
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    for (const r of ev.diff.records.webReleases.values())
      ops.push({ type: 'put', key: siteReleaseKey(r.siteId, r.seq), value: r.releaseId });
    return { state, ops };
  },
};
