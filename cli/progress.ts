/**
 * Progress on stderr for long CLI work (replay, audit): a cli-progress bar when stderr is a
 * terminal; otherwise, if asked, a plain line every ~10% so logs of CI and services stay short.
 */
import cliProgress from 'cli-progress';

/** A progress reporter. */
export interface Progress {
  /** Reports `value` out of the total (the total may be raised). */
  update(value: number, total?: number): void;
  /** Ends the bar (or the lines). */
  stop(): void;
}

/** Options of `progress`. */
export interface ProgressOptions {
  /** What is being counted, e.g. "blocks" or "bytes". */
  unit: string;
  /** Without a terminal, print a line every ~10% (default false: silent). */
  linesWhenNotTty?: boolean;
  /** Where to write (default process.stderr). */
  stream?: NodeJS.WriteStream;
}

const NONE: Progress = { update() {}, stop() {} };

/** A progress reporter for `label`, counting to `total`. */
export function progress(label: string, total: number, opts: ProgressOptions): Progress {
  const stream = opts.stream ?? process.stderr;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${opts.unit} | eta {eta_formatted}`,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.max(total, 1), 0);
    return {
      update(value, newTotal) {
        if (newTotal !== undefined) bar.setTotal(Math.max(newTotal, 1));
        bar.update(value);
      },
      stop: () => bar.stop(),
    };
  }
  if (!opts.linesWhenNotTty) return NONE;
  let max = Math.max(total, 1);
  let lastDecile = 0;
  const started = Date.now();
  return {
    update(value, newTotal) {
      if (newTotal !== undefined) max = Math.max(newTotal, 1);
      const decile = Math.min(10, Math.floor((value / max) * 10));
      if (decile <= lastDecile) return;
      lastDecile = decile;
      stream.write(`${label}: ${decile * 10}% (${value}/${max} ${opts.unit}, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    },
    stop() {},
  };
}
