/**
 * `ombra tail`: follows GET /api/chain/events through the client's subscription (eventsource-
 * parser over a streaming fetch), prints the chosen events, reconnects with the spec's backoff
 * (1, 2, 4, 8 s ... capped at 30 s) and resumes with Last-Event-ID, so no block is missed or
 * printed twice across reconnects.
 */
import { backoffMs, OmbraClient } from '../../client/index.ts';
import { flagSpecs, API_KEY_FLAG, apiKeyFlag, helpText, intFlag, parseFlags, UsageError, URL_FLAG } from '../args.ts';
import { formatHuman, formatJson, wantsColour, type TailEvent } from './tailFormat.ts';

/** Flags of `ombra tail`. */
const TAIL_FLAGS = flagSpecs({
  url: URL_FLAG,
  'api-key': API_KEY_FLAG,
  events: {
    type: 'string',
    env: 'OMBRA_TAIL_EVENTS',
    default: 'block,tx,reorg',
    help: 'comma-separated events to print: block, tx, reorg, hello, ping',
  },
  json: { type: 'boolean', env: 'OMBRA_TAIL_JSON', help: 'print NDJSON ({"event","id","data"} per line) instead of columns' },
  'from-height': {
    type: 'string',
    env: 'OMBRA_TAIL_FROM_HEIGHT',
    help: 'start with the blocks from this height (replayed from the log), then follow',
  },
});

const USAGE = 'ombra tail [--url URL] [--api-key KEY] [--events block,tx] [--json] [--from-height N]';
const SUMMARY =
  'Prints the live events of a node (GET /api/chain/events). Reconnects after 1, 2, 4, 8 ... 30 s and\n' +
  'resumes with Last-Event-ID. Connection notices go to stderr. Ctrl-C exits 0.';
const KNOWN_EVENTS = ['block', 'tx', 'reorg', 'hello', 'ping'];

/** Help for `ombra tail`. */
export const tailHelp = () => helpText(USAGE, SUMMARY, TAIL_FLAGS);

/** The wait before reconnect attempt `n` (0-based): 1, 2, 4, 8, 16 s, then 30 s. */
export { backoffMs };

/** Runs `ombra tail` until SIGINT/SIGTERM (exit 0). */
export async function tailCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, TAIL_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const events = new Set(
    String(flags.events)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  for (const e of events)
    if (!KNOWN_EVENTS.includes(e)) throw new UsageError(`--events: unknown event ${e}; events: ${KNOWN_EVENTS.join(', ')}`);
  let url: URL;
  try {
    url = new URL(flags.url);
  } catch {
    throw new UsageError('--url must be an http(s) URL');
  }
  const fromHeight = intFlag(flags, 'from-height', 0, Number.MAX_SAFE_INTEGER);
  const json = flags.json === true;
  const colour = !json && wantsColour(process.stdout);
  const ctl = new AbortController();
  const onSignal = () => ctl.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // `ombra tail | head` closes the pipe: that is a normal way to stop, not a crash.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => (e.code === 'EPIPE' ? onSignal() : undefined));
  try {
    return await new OmbraClient({ url: url.href, apiKey: apiKeyFlag(flags) }).subscribe({
      fromHeight,
      signal: ctl.signal,
      onEvent: (e: TailEvent) => {
        if (events.has(e.event) && !ctl.signal.aborted)
          process.stdout.write(`${json ? formatJson(e) : formatHuman(e, colour, new Date(), events.has('tx'))}\n`);
      },
      onNotice: (line) => process.stderr.write(`ombra tail: ${line}\n`),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
