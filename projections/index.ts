/** Every read model the node runs, in fold order (the consensus state first). */
import { accountsProjection } from './accounts.ts';
import { addressHistoryProjection, blockHashProjection, txIndexProjection } from './chainIndex.ts';
import { chainStatsProjection } from './chainStats.ts';
import { holdersProjection } from './holders.ts';
import { minerStatsProjection } from './minerStats.ts';
import type { Projection } from './projection.ts';
import { supplyProjection } from './supply.ts';

/** The node's projections. */
export const PROJECTIONS: Projection<any>[] = [
  accountsProjection,
  blockHashProjection,
  txIndexProjection,
  addressHistoryProjection,
  chainStatsProjection,
  supplyProjection,
  holdersProjection,
  minerStatsProjection,
];
