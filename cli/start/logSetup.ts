/** The logging flags every long-running command shares, and the logger they configure. */
import { createLogger, type Logger, type LogLevel } from '../../node/log.ts';
import { defaultLogFormat, LOG_FORMATS, type LogFormat } from '../../node/logFormat.ts';
import { UsageError, type FlagSpec, type Flags } from '../args.ts';

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'];

/** `--log-level` and `--log-format`, each with its environment twin. */
export const LOG_FLAGS: Record<string, FlagSpec> = {
  'log-level': { type: 'string', env: 'OMBRA_LOG_LEVEL', default: 'info', help: 'debug | info | warn | error | silent' },
  'log-format': {
    type: 'string',
    env: 'OMBRA_LOG_FORMAT',
    help: 'json | pretty: one JSON object a line, or aligned text (default pretty on a terminal, json otherwise)',
  },
};

/** The log format the flags ask for, or the default for `stream`. */
function logFormatOf(flags: Flags, stream: { isTTY?: boolean } = process.stderr): LogFormat {
  const f = flags['log-format'] as string | undefined;
  if (f === undefined || f === '') return defaultLogFormat(stream);
  if (!(LOG_FORMATS as readonly string[]).includes(f)) throw new UsageError(`--log-format must be ${LOG_FORMATS.join(' or ')}`);
  return f as LogFormat;
}

/**
 * The stderr logger the flags describe. Process warnings (Node's own, e.g. experimental
 * features) are written through it too, so a JSON log stays one object a line.
 */
export function loggerFromFlags(flags: Flags): Logger {
  const level = flags['log-level'] as string;
  if (!LEVELS.includes(level)) throw new UsageError('--log-level must be debug, info, warn, error or silent');
  const log = createLogger(level as LogLevel, undefined, logFormatOf(flags));
  process.removeAllListeners('warning');
  process.on('warning', (w) => log.warn(w.message, { warning: w.name }));
  return log;
}
