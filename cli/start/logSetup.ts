/** The logging flags every long-running command shares, and the logger they configure. */
import { createLogger, type Logger, type LogLevel } from '../../node/log.ts';
import { defaultLogFormat, LOG_FORMATS, type LogFormat } from '../../node/logFormat.ts';
import { flagSpecs, type Flags, UsageError } from '../args.ts';

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'];

/** `--log-level` and `--log-format`, each with its environment twin. */
export const LOG_FLAGS = flagSpecs({
  'log-level': { type: 'string', env: 'OMBRA_LOG_LEVEL', default: 'info', help: 'debug | info | warn | error | silent' },
  'log-format': {
    type: 'string',
    env: 'OMBRA_LOG_FORMAT',
    help: 'json | pretty: one JSON object a line, or aligned text (default pretty on a terminal, json otherwise)',
  },
});

/** Whether `f` is one of the log formats. */
const isLogFormat = (f: string): f is LogFormat => LOG_FORMATS.some((x) => x === f);
/** Whether `l` is one of the log levels. */
const isLogLevel = (l: string): l is LogLevel => LEVELS.some((x) => x === l);

/** The log format the flags ask for, or the default for `stream`. */
function logFormatOf(flags: Flags<typeof LOG_FLAGS>, stream: { isTTY?: boolean } = process.stderr): LogFormat {
  const f = flags['log-format'];
  if (f === undefined || f === '') return defaultLogFormat(stream);
  if (!isLogFormat(f)) throw new UsageError(`--log-format must be ${LOG_FORMATS.join(' or ')}`);
  return f;
}

/**
 * The stderr logger the flags describe. Process warnings (Node's own, e.g. experimental
 * features) are written through it too, so a JSON log stays one object a line.
 */
export function loggerFromFlags(flags: Flags<typeof LOG_FLAGS>): Logger {
  const level = flags['log-level'];
  if (!isLogLevel(level)) throw new UsageError('--log-level must be debug, info, warn, error or silent');
  const log = createLogger(level, undefined, logFormatOf(flags));
  process.removeAllListeners('warning');
  process.on('warning', (w) => log.warn(w.message, { warning: w.name }));
  return log;
}
