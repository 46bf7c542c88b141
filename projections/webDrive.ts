/**
 * The web drive's read model beside its consensus records:
 * - `r!<siteId>!<seq, 8 digits>` -> releaseId: each site's releases in publication order, so a
 *   site's release list is one range read (newest first in reverse) however many sites and
 *   releases the chain holds. Releases are immutable: a row is written once, in the block that
 *   published it.
 * - `s!<n>` -> siteId: every site in registration order, numbered from 0 (the count in memory,
 *   kept with the saved position), so a page of sites at any offset is one range read.
 */
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { numberedRows, rowGroup } from './rows.ts';

/** `r!<siteId>!<seq, 8 digits>` -> releaseId: a site's releases in order (siteIds hold no `!`). */
export const siteReleaseRows = rowGroup<string, string, number>(
  (siteId) => `r!${siteId}!`,
  (seq) => seq.toString().padStart(8, '0'),
);

/** `s!<n>` -> siteId: every site, oldest first. */
export const siteRows = numberedRows<string>(() => 's!');

/** How many sites `s!` numbers. */
export interface WebDriveState {
  sites: number;
}

/** Releases by site, and every site. */
export const webDriveProjection: Projection<WebDriveState, WebDriveState> = {
  name: 'webDrive',
  version: 2,
  init: () => ({ sites: 0 }),
  apply(state, ev: BlockEvent) {
    const ops: KvOp[] = [];
    for (const r of ev.diff.records.webReleases.values()) ops.push(siteReleaseRows.put(r.siteId, r.seq, r.releaseId));
    // A site's record keeps the height that registered it: a new site is one registered in this block.
    const fresh = [...ev.diff.records.webSites.values()].filter((s) => s.blockIndex === ev.block.index).map((s) => s.siteId);
    for (const siteId of fresh.sort()) ops.push(siteRows.put(undefined, state.sites++, siteId));
    return { state, ops };
  },
  save: (s) => ({ sites: s.sites }),
  load: (saved) => ({ sites: saved.sites }),
};
