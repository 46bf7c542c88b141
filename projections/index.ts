/** Every read model the node runs, in fold order (the consensus state first). */
import { accountsProjection } from './accounts.ts';
import { agentRunsProjection } from './agentRuns.ts';
import { allTxsProjection } from './allTxs.ts';
import { analyticsProjection } from './analytics.ts';
import { addressHistoryProjection, blockHashProjection, txIndexProjection } from './chainIndex.ts';
import { chainStatsProjection } from './chainStats.ts';
import { chatProjection } from './chat.ts';
import { contentProjection } from './content.ts';
import { feeEstimateProjection } from './feeEstimate.ts';
import { holdersProjection } from './holders.ts';
import { minerStatsProjection } from './minerStats.ts';
import { nameIndexProjection } from './nameIndex.ts';
import { recordListsProjection } from './recordLists.ts';
import type { Projection } from './projection.ts';
import { socialProjection } from './social.ts';
import { supplyProjection } from './supply.ts';
import { validatorsProjection } from './validators.ts';
import { tasksProjection } from './tasks.ts';
import { tpsProjection } from './tps.ts';
import { webDriveProjection } from './webDrive.ts';

/** The node's projections. */
// biome-ignore lint/suspicious/noExplicitAny: a list of projections of different state types
export const PROJECTIONS: Projection<any>[] = [
  accountsProjection,
  blockHashProjection,
  txIndexProjection,
  addressHistoryProjection,
  allTxsProjection,
  chainStatsProjection,
  supplyProjection,
  holdersProjection,
  minerStatsProjection,
  recordListsProjection,
  tasksProjection,
  agentRunsProjection,
  chatProjection,
  contentProjection,
  socialProjection,
  webDriveProjection,
  nameIndexProjection,
  feeEstimateProjection,
  analyticsProjection,
  tpsProjection,
  validatorsProjection,
];
