/**
 * The one progress helper of long CLI work (replay, audit, snapshot export, a node catching up
 * or syncing at startup): a cli-progress bar with rate and ETA when stderr is a terminal;
 * otherwise plain lines (`label: 40% (400/1000 blocks, 812 blocks/s, eta 0.7 s)`) every 10% or
 * every 5 s, whichever comes first, and at the end. A node sends those lines through its logger
 * instead, so a JSON log stays JSON.
 */
import cliProgress from 'cli-progress';

/** A progress reporter. */
export interface Progress {
  /** Reports `value` out of the total (the total may change). */
  update(value: number, total?: number): void;
  /** Ends the bar (or writes the last line if the end was not reported). */
  stop(): void;
}

/** One plain progress report (what a line or a log record carries). */
export interface ProgressReport {
  task: string;
  done: number;
  total: number;
  unit: string;
  percent: number;
  /** Units per second over the last few seconds. */
  rate: number;
  /** Seconds left at that rate; null while unknown. */
  etaSeconds: number | null;
}

/** Options of `progress`. */
export interface ProgressOptions {
  /** What is being counted: "blocks", "bytes" (shown as KiB/MiB) ... */
  unit: string;
  /** Where the bar or lines go (default process.stderr). */
  stream?: NodeJS.WriteStream;
  /** Without a terminal, reports go here instead of plain lines on `stream` (e.g. a logger). */
  report?: (text: string, r: ProgressReport) => void;
  /** Clock (tests). */
  now?: () => number;
}

const LINE_EVERY_MS = 5000;
const RATE_WINDOW_MS = 5000;

/** `n` of `unit` for people: bytes in KiB/MiB/GiB, anything else as an integer. */
export function amount(n: number, unit: string): string {
  if (unit !== 'bytes') return `${Math.round(n)}`;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** Seconds for people: 0.7 s, 42 s, 3m05s, 2h03m. */
export function duration(s: number | null): string {
  if (s === null || !Number.isFinite(s)) return '?';
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** Rate over a sliding window of (time, value) samples. */
class RateMeter {
  private readonly samples: [number, number][] = [];
  add(t: number, v: number): void {
    this.samples.push([t, v]);
    while (this.samples.length > 2 && t - this.samples[1][0] >= RATE_WINDOW_MS) this.samples.shift();
  }
  rate(): number {
    if (this.samples.length < 2) return 0;
    const [t0, v0] = this.samples[0];
    const [t1, v1] = this.samples[this.samples.length - 1];
    return t1 > t0 ? ((v1 - v0) * 1000) / (t1 - t0) : 0;
  }
}

/** The text of a report: `label: 40% (400/1000 blocks, 812 blocks/s, eta 0.7 s)`. */
function reportText(r: ProgressReport): string {
  const u = r.unit === 'bytes' ? '' : ` ${r.unit}`;
  const rate = r.unit === 'bytes' ? `${amount(r.rate, 'bytes')}/s` : `${Math.round(r.rate)} ${r.unit}/s`;
  return `${r.task}: ${r.percent}% (${amount(r.done, r.unit)}/${amount(r.total, r.unit)}${u}, ${rate}, eta ${duration(r.etaSeconds)})`;
}

/** A progress reporter for `label`, counting to `total`. */
export function progress(label: string, total: number, opts: ProgressOptions): Progress {
  const stream = opts.stream ?? process.stderr;
  const now = opts.now ?? (() => performance.now());
  const meter = new RateMeter();
  let max = Math.max(total, 1);
  let last = 0;
  const snapshot = (value: number): ProgressReport => {
    const rate = meter.rate();
    return {
      task: label,
      done: value,
      total: max,
      unit: opts.unit,
      percent: Math.min(100, Math.floor((value / max) * 100)),
      rate,
      etaSeconds: value >= max ? 0 : rate > 0 ? (max - value) / rate : null,
    };
  };
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${label} [{bar}] {percentage}% | {done}/{all} | {speed} | eta {left}`,
        hideCursor: true,
        clearOnComplete: false,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
    const payload = (r: ProgressReport) => ({
      done: amount(r.done, r.unit),
      all: `${amount(r.total, r.unit)}${r.unit === 'bytes' ? '' : ` ${r.unit}`}`,
      speed: r.unit === 'bytes' ? `${amount(r.rate, 'bytes')}/s` : `${Math.round(r.rate)} ${r.unit}/s`,
      left: duration(r.etaSeconds),
    });
    meter.add(now(), 0);
    bar.start(max, 0, payload(snapshot(0)));
    return {
      update(value, newTotal) {
        if (newTotal !== undefined) {
          max = Math.max(newTotal, 1);
          bar.setTotal(max);
        }
        meter.add(now(), value);
        bar.update(value, payload(snapshot(value)));
      },
      stop: () => bar.stop(),
    };
  }
  const emit = (r: ProgressReport) => (opts.report ? opts.report(reportText(r), r) : stream.write(`${reportText(r)}\n`));
  let lastDecile = 0;
  let lastAt = now();
  let ended = false;
  meter.add(lastAt, 0);
  return {
    update(value, newTotal) {
      if (newTotal !== undefined) max = Math.max(newTotal, 1);
      const t = now();
      meter.add(t, value);
      last = value;
      const decile = Math.min(10, Math.floor((value / max) * 10));
      if (decile <= lastDecile && t - lastAt < LINE_EVERY_MS) return;
      lastDecile = Math.max(decile, lastDecile);
      lastAt = t;
      ended = value >= max;
      emit(snapshot(value));
    },
    stop() {
      if (!ended && last > 0) emit(snapshot(last));
      ended = true;
    },
  };
}

/**
 * Progress of work that comes in bursts (a node catching up or syncing): a reporter appears
 * when a call finds the work behind (`value < total`) and ends when it has caught up.
 */
export function burstProgress(label: string, opts: ProgressOptions): (value: number, total: number) => void {
  let current: Progress | null = null;
  return (value, total) => {
    if (!current) {
      if (value >= total) return;
      current = progress(label, total, opts);
    }
    current.update(value, total);
    if (value >= total) {
      current.stop();
      current = null;
    }
  };
}
