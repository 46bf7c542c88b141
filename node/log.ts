/** Logging to stderr: one line per event, JSON or pretty (see logFormat.ts). */
import { jsonLine, prettyLine, type LogFormat } from './logFormat.ts';

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

/** A stderr logger at `level`, writing `format` lines (default pretty). */
export function createLogger(
  level: LogLevel = 'info',
  write: (line: string) => void = (l) => process.stderr.write(l),
  format: LogFormat = 'pretty',
): Logger {
  const min = LEVELS[level];
  const line = format === 'json' ? jsonLine : prettyLine;
  const emit = (lvl: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    write(line(new Date(), lvl, msg, fields));
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
