/** Chain-wide figures kept by small in-memory projections: TPS, validators, analytics, fee estimate. */
import { overview, type Range, analyticsProjection } from '../projections/analytics.ts';
import { feeEstimate, feeEstimateProjection } from '../projections/feeEstimate.ts';
import { tpsProjection, tpsRecord } from '../projections/tps.ts';
import { validatorStats, validatorsProjection } from '../projections/validators.ts';
import type { ReadModels } from '../node/ports.ts';

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

  /** All-time transaction counts, 7 rows (Monday first) x 24 UTC hours. */
  heatmap(): number[][] {
    return this.models.state(analyticsProjection).heatmap;
  }

  /** The task fee estimate (nearest-rank percentiles of TASK_SUBMIT fees). */
  feeEstimate(): ReturnType<typeof feeEstimate> {
    return feeEstimate(this.models.state(feeEstimateProjection));
  }
}
