/**
 * Every consensus record of a node, read from its rows: a restarted node holds only its open
 * records and the few it read since (core/recordCache.ts), so tests that pick samples from the
 * chain's records read them here rather than from `node.state()`.
 */
import type { ChainState } from '../../core/state.ts';
import type { OmbraNode } from '../../node/node.ts';
import { accountsProjection } from '../../projections/accounts.ts';

/** The node's consensus state with every record, as its rows hold it. */
export async function completeState(node: OmbraNode): Promise<ChainState> {
  const rows = await node.runner.readable(accountsProjection);
  // A complete state (no record cache) reads every row.
  return accountsProjection.restore!(rows.iterator() as AsyncIterable<[string, unknown]>, {
    ...node.info,
    recordCache: Number.POSITIVE_INFINITY,
  });
}
