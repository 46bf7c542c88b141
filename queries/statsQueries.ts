/** Chain-wide figures kept by small in-memory projections: TPS, validators, analytics, fee estimate. */
import { overview, type Range, analyticsProjection } from '../projections/analytics.ts';
import { feeEstimate, feeEstimateProjection } from '../projections/feeEstimate.ts';
import { tpsProjection, tpsRecord } from '../projections/tps.ts';
import { validatorStats, validatorsProjection } from '../projections/validators.ts';
import type { ReadModels } from '../node/ports.ts';
import { recordListsProjection } from '../projections/recordLists.ts';
import { circulating, supplyProjection } from '../projections/supply.ts';
import { analyticsSeries, type SeriesStep } from './analyticsSeries.ts';

/** Query object over the stats projections. */
export class StatsQueries {
  private readonly models: ReadModels;

  constructor(models: ReadModels) {
    this.models = models;
  }

  /** Transactions per second (see projections/tps.ts). */
  tps(): ReturnType<typeof tpsRecord> {
    return tpsRecord(this.models.state(tpsProjection));
  }

  /** Blocks proposed and slots missed per authority over the last 1,000 blocks. */
  validators(): ReturnType<typeof validatorStats> {
    return validatorStats(this.models.state(validatorsProjection));
  }

  /** The analytics overview over `range`, ending with the latest block's hour. */
  overview(range: Range): ReturnType<typeof overview> {
    return overview(this.models.state(analyticsProjection), range);
  }

  /** Chart points of `range` by hour or UTC day (queries/analyticsSeries.ts). */
  series(range: Range, step: SeriesStep): ReturnType<typeof analyticsSeries> {
    return analyticsSeries(this.models.state(analyticsProjection), range, step);
  }

  /** The explorer's headline figures, each read from a projection's memory. */
  totals() {
    const a = this.models.state(analyticsProjection);
    const day = overview(a, '24h');
    const supply = this.models.state(supplyProjection);
    const tps = this.tps();
    return {
      height: this.models.height(analyticsProjection),
      transactions: a.totalTxs,
      tasks: a.totalTasks,
      agentRuns: a.totalRuns,
      miners: this.models.state(recordListsProjection).counts.miners,
      activeMiners24h: day.uniqueMiners,
      transactions24h: day.txCount,
      blocks24h: day.blocks,
      tps: { average: tps.average, peak: tps.peak },
      blockTimeMs24h: day.avgBlockTimeMs,
      circulatingSupply: circulating(supply).toString(),
      totalBurned: supply.totalBurned,
      feesPaid: a.feesPaid,
      storageUsed: a.storageUsed,
    };
  }

  /** All-time transaction counts, 7 rows (Monday first) x 24 UTC hours. */
  heatmap(): number[][] {
    return this.models.state(analyticsProjection).heatmap;
  }

  /** The task fee estimate (nearest-rank percentiles of TASK_SUBMIT fees). */
  feeEstimate(): ReturnType<typeof feeEstimate> {
    return feeEstimate(this.models.state(feeEstimateProjection));
  }
}
