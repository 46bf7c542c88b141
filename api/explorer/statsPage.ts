// The stats page (#/stats): the chain's series over a range the visitor picks (24 hours, 7 days
// or 30 days: tabs), each chart with its legend and the values under the pointer, and the totals.
// One read of the series and one of the totals per range (the shared cache keeps them 30 s).
import type { OmbraClient } from '../../client/browser.ts';
import { Chart, type ChartSeries, fmtBytes } from './charts.ts';
import { el } from './dom.ts';
import { pageOf, section } from './format.ts';
import { splitArg } from './paging.ts';
import { ombraNumber } from './text.ts';

const RANGES: readonly [range: '24h' | '7d' | '30d', label: string, step: 'hour' | 'day'][] = [
  ['24h', '24 hours', 'hour'],
  ['7d', '7 days', 'hour'],
  ['30d', '30 days', 'day'],
];

export async function statsPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  const [range, label, step] = RANGES.find(([r]) => r === query.get('range')) ?? RANGES[1];
  const per = step === 'hour' ? 'per hour' : 'per day';
  const [series, totals] = await Promise.all([
    client.read('getApiAnalyticsSeries', {}, { range, step }),
    client.read('getApiAnalyticsTotals', {}),
  ]);
  const xs = series.points.map((p) => p.start / 1000);
  const chart = (title: string, lines: ChartSeries[], ys: (number | null)[][], opts: { format?: (n: number) => string } = {}) => {
    const c = new Chart(`${title}, ${label}`, lines, { x: 'time', ...opts });
    c.setData([xs, ...ys]);
    return el('div', { class: 'card' }, c.element);
  };
  const pts = series.points;
  return pageOf(
    'Stats',
    el(
      'nav',
      { class: 'tabs', 'aria-label': 'Range' },
      ...RANGES.map(([r, name]) => el('a', { href: `#/stats/?range=${r}`, 'aria-current': r === range ? 'page' : undefined }, name)),
    ),
    section(
      'Totals',
      el(
        'p',
        {},
        `${totals.transactions.toLocaleString('en-US')} transactions, ${totals.tasks.toLocaleString('en-US')} tasks, ${totals.miners.toLocaleString('en-US')} miners; ${totals.transactions24h.toLocaleString('en-US')} transactions in the last 24 hours.`,
      ),
    ),
    el(
      'section',
      { class: 'charts', 'aria-label': 'Charts' },
      chart(
        `Transactions and blocks ${per}`,
        [
          { label: 'transactions', bars: true },
          { label: 'blocks', scale: 'right' },
        ],
        [pts.map((p) => p.txCount), pts.map((p) => p.blocks)],
      ),
      chart(
        `TPS and block time ${per}`,
        [
          { label: 'TPS', unit: 'tx/s' },
          { label: 'block time', unit: 's', scale: 'right' },
        ],
        [pts.map((p) => p.tps), pts.map((p) => (p.blockTimeMs === null ? null : p.blockTimeMs / 1000))],
      ),
      chart(`Fees ${per} (OMBRA)`, [{ label: 'fees', unit: 'OMBRA', bars: true }], [pts.map((p) => ombraNumber(p.fees))]),
      chart(`Tasks submitted ${per}`, [{ label: 'tasks', bars: true }], [pts.map((p) => p.tasks)]),
      chart(`Active miners ${per}`, [{ label: 'active miners', bars: true }], [pts.map((p) => p.activeMiners)]),
      chart(`Drive storage used`, [{ label: 'storage' }], [pts.map((p) => Number(p.storageUsed))], { format: fmtBytes }),
    ),
  );
}
