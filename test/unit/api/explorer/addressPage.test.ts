/**
 * The address page's filters (api/explorer/addressPage.ts `filtersOf`), without a browser: what
 * a query asks for becomes what the node reads (type, direction, and whole UTC days of the
 * block's time as epoch-ms bounds, inclusive); anything malformed is left out, never sent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filtersOf } from '../../../../api/explorer/addressPage.ts';

test('dates are whole UTC days: since from its first ms, until through its last', () => {
  assert.deepEqual(filtersOf(new URLSearchParams('since=2026-11-01&until=2026-11-02')), {
    since: Date.UTC(2026, 10, 1),
    until: Date.UTC(2026, 10, 3) - 1,
  });
  assert.deepEqual(filtersOf(new URLSearchParams('type=TRANSFER&direction=out')), { type: 'TRANSFER', direction: 'out' });
});

test('malformed filters are left out', () => {
  for (const q of [
    'since=yesterday',
    'until=2026-13-40',
    'since=2026-1-1',
    'type=transfer',
    'type=A',
    'direction=sideways',
    'direction=any',
  ])
    assert.deepEqual(filtersOf(new URLSearchParams(q)), {}, q);
});
