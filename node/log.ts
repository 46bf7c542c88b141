/** Logging to stderr: one line per event, `time level msg key=value...`. */

/** A logger. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
/** Logger verbosity. */
export type LogLevel = keyof typeof LEVELS;

/** A stderr logger at `level`. */
export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const min = LEVELS[level];
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    const extra = fields
      ? Object.entries(fields)
          .map(([k, v]) => ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x))}`)
          .join('')
      : '';
    write(`${new Date().toISOString()} ${lvl.toUpperCase().padEnd(5)} ${msg}${extra}\n`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
  };
}

/** A logger that drops everything (tests). */
export const silentLogger: Logger = createLogger('silent');
