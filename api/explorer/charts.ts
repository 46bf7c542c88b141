// Charts of the home page, drawn with uPlot (served by the node from node_modules at
// /explorer/vendor/uPlot.js; no CDN). Each chart is a <figure> whose caption names it and
// states its latest value in text, so the canvas is never the only way to read it. Charts
// follow their box's width (phones included) and take new data without being rebuilt.
import uPlot from 'uplot';
import { el } from './dom.ts';

const HEIGHT = 170;
// The legend below each chart sits in the box too.
const COLORS = ['#2456b3', '#b35a00', '#1f7a4d', '#7a3fb3'];

/** A series of a chart: its label and unit, bars or a line, and the scale it is drawn on ('right': a second axis). */
export interface ChartSeries {
  label: string;
  unit?: string;
  bars?: boolean;
  scale?: 'right';
}

/** A chart's data: the x values, then each series' values (null: no value there). */
export type ChartData = [xs: number[], ...ys: (number | null)[][]];

/** What x a chart is over: block heights, UTC hours of the day or UNIX seconds. */
type ChartX = 'height' | 'hour' | 'time';

/** How the legend shows the x under the pointer. */
function xValue(x: ChartX): (u: uPlot, v: number | null) => string {
  if (x === 'height') return (_u, v) => (v === null || v === undefined ? '—' : `#${v}`);
  if (x === 'hour') return (_u, v) => (v === null || v === undefined ? '—' : `${v}:00`);
  return (_u, v) => (v === null || v === undefined ? '—' : new Date(v * 1000).toISOString().slice(0, 16).replace('T', ' '));
}

/**
 * A chart of series over x: block heights (`x: 'height'`, the default), UTC hours of the day
 * (`'hour'`) or UNIX seconds (`'time'`); `series` are `{label, unit, bars?, scale?}` where
 * scale 'right' puts a series on a second axis; `caption(data)` replaces the default caption
 * (each series' last value).
 */
export class Chart {
  readonly element: HTMLElement;
  private readonly series: readonly ChartSeries[];
  private readonly x: ChartX;
  private readonly caption: ((data: ChartData) => string) | undefined;
  private readonly format: (n: number) => string;
  private readonly summary: HTMLElement;
  private readonly box: HTMLElement;
  private readonly plot: uPlot;

  constructor(
    title: string,
    series: readonly ChartSeries[],
    { x = 'height', caption, format = fmt }: { x?: ChartX; caption?: (data: ChartData) => string; format?: (n: number) => string } = {},
  ) {
    this.series = series;
    this.x = x;
    this.caption = caption;
    this.format = format;
    this.summary = el('span', { class: 'muted' });
    this.box = el('div', { class: 'chart-box', role: 'img', 'aria-label': title });
    this.element = el('figure', { class: 'chart' }, el('figcaption', {}, el('strong', {}, title), ' ', this.summary), this.box);
    // Value axes start at zero: a block time of 1 s with 3% jitter is a flat line, not spikes.
    const fromZero: uPlot.Scale = { range: (_u, min, max) => [Math.min(0, min ?? 0), max > 0 ? max * 1.15 : 1] };
    const scales: uPlot.Scales = { ...(x === 'time' ? {} : { x: { time: false } }), y: fromZero, right: fromZero };
    const xLabels =
      x === 'hour'
        ? (_u: uPlot, ticks: number[]) => ticks.map((t) => `${t}h`)
        : x === 'height'
          ? (_u: uPlot, ticks: number[]) => ticks.map((t) => `#${t}`)
          : undefined;
    const axes: uPlot.Axis[] = [
      xLabels ? { stroke: '#8a93a6', values: xLabels } : { stroke: '#8a93a6' },
      ...(series.some((s) => s.scale === 'right')
        ? [{ stroke: '#8a93a6' }, { scale: 'right', side: 1, size: 64, stroke: '#8a93a6', grid: { show: false } }]
        : [{ stroke: '#8a93a6' }]),
    ];
    const shown = (s: ChartSeries, v: number) => `${s.scale === 'right' ? fmt(v) : this.format(v)}${s.unit ? ` ${s.unit}` : ''}`;
    this.plot = new uPlot(
      {
        width: 320,
        height: HEIGHT,
        // The legend names each series by its colour and shows the values under the pointer.
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false } },
        scales,
        axes,
        series: [
          { label: x === 'height' ? 'block' : x === 'hour' ? 'hour (UTC)' : 'time', value: xValue(x) },
          ...series.map(
            (s, i): uPlot.Series => ({
              label: s.label,
              scale: s.scale === 'right' ? 'right' : 'y',
              stroke: COLORS[i % COLORS.length],
              fill: s.bars ? `${COLORS[i % COLORS.length]}55` : undefined,
              width: 1.5,
              points: { show: false },
              paths: s.bars ? uPlot.paths.bars?.({ size: [0.8, 40] }) : undefined,
              value: (_u, v) => (v === null || v === undefined ? '—' : shown(s, v)),
            }),
          ),
        ],
      },
      [[], ...series.map(() => [])],
      this.box,
    );
    // The chart takes its box's width, now and whenever the layout changes.
    new ResizeObserver(() => {
      const w = Math.floor(this.box.clientWidth);
      if (w > 0 && w !== this.plot.width) this.plot.setSize({ width: w, height: HEIGHT });
    }).observe(this.box);
  }

  /** Replaces the data: `[xs, ys1, ys2, ...]`; the caption shows each series' last value (with its block on a height chart). */
  setData(data: ChartData): void {
    this.plot.setData(data);
    if (this.caption) {
      this.summary.textContent = this.caption(data);
      return;
    }
    const values = this.series.map((s, i) => {
      const ys = data[i + 1] ?? [];
      const last = ys.length ? ys[ys.length - 1] : null;
      return last === null ? '' : `${s.label} ${s.scale === 'right' ? fmt(last) : this.format(last)}${s.unit ? ` ${s.unit}` : ''}`;
    });
    const xs = data[0];
    const at = this.x === 'height' && xs.length ? [`at #${xs[xs.length - 1]}`] : [];
    this.summary.textContent = [...values.filter(Boolean), ...at].join(' · ');
  }
}

/** Up to 3 significant decimals, grouped thousands. */
export const fmt = (n: unknown): string =>
  typeof n === 'number' ? n.toLocaleString('en-US', { maximumFractionDigits: n < 10 ? 3 : 1 }) : String(n);

/** A byte count with its unit ("1.5 MB"). */
export function fmtBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  for (; Math.abs(v) >= 1000 && i < units.length - 1; i++) v /= 1000;
  return `${fmt(v)} ${units[i]}`;
}

/** A row of a bar list: its label, value and the text shown (the value by default). */
export interface BarRow {
  label: string;
  value: number;
  text?: string;
}

/** Horizontal bars of labelled counts (categorical data uPlot is not made for), as a list a screen reader reads. */
export function barList(title: string, rows: readonly BarRow[], empty = 'nothing yet'): HTMLElement {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return el(
    'figure',
    { class: 'chart' },
    el('figcaption', {}, el('strong', {}, title)),
    rows.length
      ? el(
          'ul',
          { class: 'bars' },
          ...rows.map((r) =>
            el(
              'li',
              {},
              el('span', { class: 'bar-label' }, r.label),
              el('span', { class: 'bar-track' }, bar((100 * r.value) / max)),
              el('span', { class: 'bar-value' }, r.text ?? fmt(r.value)),
            ),
          ),
        )
      : el('p', { class: 'muted' }, empty),
  );
}

/** A bar `pct` wide (set through CSSOM: the page's CSP forbids style attributes, not this). */
function bar(pct: number): HTMLElement {
  const b = el('span', { class: 'bar' });
  b.style.width = `${Math.max(1, Math.round(pct))}%`;
  return b;
}
