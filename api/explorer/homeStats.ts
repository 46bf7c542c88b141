// The home page's headline figures and analytics charts, read from the node's analytics routes
// (/api/analytics/totals and /series, which the analytics projection answers without a scan),
// the fee estimate, the authorities' record and the weekday-hour heatmap. Re-read by the home
// page at most every 10 s while blocks come.
import type { OmbraClient } from '../../client/browser.ts';
import { barList, Chart, type ChartData, fmt, fmtBytes } from './charts.ts';
import { el } from './dom.ts';
import { ombraNumber, ombraText, shortId } from './text.ts';

const sum = (ys: readonly (number | null)[] = []) => ys.reduce<number>((a, b) => a + (b ?? 0), 0);
/** The values of a chart's series `i` (none when it has no such series). */
const ysOf = (d: ChartData, i: number): number[] => (d[i] ?? []).flatMap((v) => (v === null ? [] : [v]));
const tile = (label: string, value: string, title?: string) => el('div', {}, el('dt', {}, label), el('dd', { title }, value));

/** Totals and charts over the last 7 days (per hour) and 30 days (per day). */
export class HomeStats {
  readonly tiles = el('dl', { class: 'tiles' });
  readonly taskTypes = el('div');
  readonly authorities = el('div');
  /** Read the charts' series too (once the charts have come into view). */
  chartsWanted = false;
  readonly charts: readonly Chart[];
  private readonly client: OmbraClient;
  private readonly hourly: Chart;
  private readonly daily: Chart;
  private readonly speed: Chart;
  private readonly miners: Chart;
  private readonly tasks: Chart;
  private readonly fees: Chart;
  private readonly storage: Chart;
  private readonly hourOfDay: Chart;

  constructor(client: OmbraClient) {
    this.client = client;
    const total = (label: string, span: string) => (d: ChartData) => `${fmt(sum(d[1]))} ${label} in ${span}`;
    this.hourly = new Chart(
      'Transactions and blocks per hour, 7 days',
      [
        { label: 'transactions', bars: true },
        { label: 'blocks', scale: 'right' },
      ],
      { x: 'time', caption: (d) => `${fmt(sum(d[1]))} transactions, ${fmt(sum(d[2]))} blocks` },
    );
    this.daily = new Chart('Transactions per day, 30 days', [{ label: 'transactions', bars: true }], {
      x: 'time',
      caption: total('transactions', '30 days'),
    });
    this.speed = new Chart(
      'TPS and block time per hour, 7 days',
      [
        { label: 'TPS', unit: 'tx/s' },
        { label: 'block time', unit: 's', scale: 'right' },
      ],
      { x: 'time', caption: (d) => `peak ${fmt(Math.max(0, ...ysOf(d, 1)))} tx/s` },
    );
    this.miners = new Chart('Active miners per day, 30 days', [{ label: 'active miners', bars: true }], {
      x: 'time',
      caption: (d) => `most in a day: ${fmt(Math.max(0, ...ysOf(d, 1)))}`,
    });
    this.tasks = new Chart('Tasks submitted per day, 30 days', [{ label: 'tasks', bars: true }], {
      x: 'time',
      caption: total('tasks', '30 days'),
    });
    this.fees = new Chart('Fees per day, 30 days (OMBRA)', [{ label: 'fees', bars: true }], {
      x: 'time',
      caption: (d) => `${fmt(sum(d[1]))} OMBRA in 30 days`,
    });
    this.storage = new Chart('Drive storage used, 30 days', [{ label: 'storage' }], {
      x: 'time',
      format: fmtBytes,
      caption: (d) => `now ${fmtBytes(ysOf(d, 1).at(-1) ?? 0)}`,
    });
    this.hourOfDay = new Chart('Transactions by UTC hour of day, all time', [{ label: 'transactions', bars: true }], {
      x: 'hour',
      caption: (d) => {
        const [hours] = d;
        const counts = ysOf(d, 1);
        const busiest = counts.indexOf(Math.max(...counts));
        return `busiest ${hours[busiest]}:00-${hours[busiest] + 1}:00 UTC`;
      },
    });
    this.charts = [this.hourly, this.daily, this.speed, this.miners, this.tasks, this.fees, this.storage, this.hourOfDay];
  }

  /** Reads the totals again (and the charts, once they have been shown) and redraws. */
  async refresh(): Promise<void> {
    const c = this.client;
    const [t, fee] = await Promise.all([c.read('getApiAnalyticsTotals', {}), c.read('getApiChainFeeEstimate', {})]);
    this.tiles.replaceChildren(
      tile('Transactions', fmt(t.transactions), `${fmt(t.transactions24h)} in the last 24 hours`),
      tile('Transactions, 24 h', fmt(t.transactions24h)),
      tile('TPS', fmt(t.tps.average), `average over the last 100 blocks; peak ${fmt(t.tps.peak)}`),
      tile('Block time, 24 h', t.blockTimeMs24h === null ? '—' : `${fmt(t.blockTimeMs24h / 1000)} s`),
      tile('Circulating supply', ombraText(t.circulatingSupply), `${t.circulatingSupply} micro-OMBRA`),
      tile('Burned', ombraText(t.totalBurned)),
      tile('Fees paid', ombraText(t.feesPaid)),
      tile('Tasks', fmt(t.tasks)),
      tile('Agent runs', fmt(t.agentRuns)),
      tile('Miners', fmt(t.miners)),
      tile('Active miners, 24 h', fmt(t.activeMiners24h), 'miners that answered a task or claimed an agent run'),
      tile(
        'Task fee (median)',
        ombraText(fee.medium),
        `25th percentile ${ombraText(fee.low)}, 90th ${ombraText(fee.high)}, over ${fee.sample} tasks`,
      ),
      tile('Storage used', fmtBytes(Number(t.storageUsed)), `${t.storageUsed} bytes on the drive`),
    );
    if (this.chartsWanted) await this.refreshCharts();
  }

  /** Reads the series behind the charts and redraws them. */
  async refreshCharts(): Promise<void> {
    const c = this.client;
    const [week, month, validators, heatmap] = await Promise.all([
      c.read('getApiAnalyticsSeries', {}, { range: '7d', step: 'hour' }),
      c.read('getApiAnalyticsSeries', {}, { range: '30d', step: 'day' }),
      c.read('getApiStatsValidators', {}),
      c.read('getApiAnalyticsHeatmap', {}),
    ]);
    const wx = week.points.map((p) => p.start / 1000);
    const mx = month.points.map((p) => p.start / 1000);
    this.hourly.setData([wx, week.points.map((p) => p.txCount), week.points.map((p) => p.blocks)]);
    this.speed.setData([wx, week.points.map((p) => p.tps), week.points.map((p) => (p.blockTimeMs === null ? null : p.blockTimeMs / 1000))]);
    this.daily.setData([mx, month.points.map((p) => p.txCount)]);
    this.miners.setData([mx, month.points.map((p) => p.activeMiners)]);
    this.tasks.setData([mx, month.points.map((p) => p.tasks)]);
    this.fees.setData([mx, month.points.map((p) => ombraNumber(p.fees))]);
    this.storage.setData([mx, month.points.map((p) => Number(p.storageUsed))]);
    const hours = Array.from({ length: 24 }, (_, h) => h);
    this.hourOfDay.setData([hours, hours.map((h) => heatmap.matrix.reduce((n, row) => n + row[h], 0))]);
    const types: Record<string, number> = {};
    for (const p of month.points) for (const [k, n] of Object.entries(p.taskTypes)) types[k] = (types[k] ?? 0) + n;
    this.taskTypes.replaceChildren(
      barList(
        'Tasks by type, 30 days',
        Object.entries(types)
          .sort((a, b) => b[1] - a[1])
          .map(([label, value]) => ({ label, value })),
        'no tasks in the last 30 days',
      ),
    );
    this.authorities.replaceChildren(
      barList(
        `Blocks by authority, last ${fmt(validators.blocks)} blocks`,
        validators.validators.map((v) => ({
          label: shortId(v.address, 6),
          value: v.proposed,
          text: `${fmt(v.proposed)}${v.missed ? `, ${fmt(v.missed)} missed` : ''}`,
        })),
      ),
    );
  }
}
