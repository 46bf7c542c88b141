/**
 * `ombra tail`: follows GET /api/chain/events with eventsource-parser over a streaming fetch,
 * prints the chosen events, reconnects with the spec's backoff (1, 2, 4, 8 s ... capped at 30 s)
 * and resumes with Last-Event-ID, so no block is missed or printed twice across reconnects.
 */
import { createParser } from 'eventsource-parser';
import { helpText, intFlag, parseFlags, UsageError, type FlagSpec } from './args.ts';
import { formatHuman, formatJson, wantsColour, type TailEvent } from './tailFormat.ts';

/** Flags of `ombra tail`. */
export const TAIL_FLAGS: Record<string, FlagSpec> = {
  url: { type: 'string', env: 'OMBRA_URL', default: 'http://127.0.0.1:7777', help: "node's HTTP API" },
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
};

const USAGE = 'ombra tail [--url URL] [--events block,tx] [--json] [--from-height N]';
const SUMMARY =
  'Prints the live events of a node (GET /api/chain/events). Reconnects after 1, 2, 4, 8 ... 30 s and\n' +
  'resumes with Last-Event-ID. Connection notices go to stderr. Ctrl-C exits 0.';
const KNOWN_EVENTS = ['block', 'tx', 'reorg', 'hello', 'ping'];
/** With pings every 2 s, this long without a byte means the connection is dead. */
const IDLE_TIMEOUT_MS = 15_000;

/** Help for `ombra tail`. */
export const tailHelp = () => helpText(USAGE, SUMMARY, TAIL_FLAGS);

/** The wait before reconnect attempt `n` (0-based): 1, 2, 4, 8, 16 s, then 30 s. */
export function backoffMs(n: number): number {
  return Math.min(1000 * 2 ** n, 30_000);
}

/** How to follow a stream. */
export interface TailOptions {
  url: string;
  fromHeight?: number;
  signal: AbortSignal;
  onEvent(e: TailEvent): void;
  onNotice(line: string): void;
}

/** Why a connection attempt ended. */
type Outcome = { fatal?: string; connected: boolean };

/** Follows the stream until `signal` aborts; resolves 0, or 1 on a refusal that retrying cannot fix. */
export async function follow(o: TailOptions): Promise<number> {
  let lastId: string | undefined;
  let failures = 0;
  while (!o.signal.aborted) {
    const outcome = await connectOnce(o, lastId, (id) => (lastId = id));
    if (outcome.fatal) {
      o.onNotice(outcome.fatal);
      return 1;
    }
    if (o.signal.aborted) break;
    if (outcome.connected) failures = 0;
    const wait = backoffMs(failures++);
    o.onNotice(`disconnected; reconnecting in ${wait / 1000} s${lastId === undefined ? '' : ` (resuming after ${lastId})`}`);
    await sleep(wait, o.signal);
  }
  return 0;
}

/** One connection: streams events until the body ends, fails, or goes idle. */
async function connectOnce(o: TailOptions, lastId: string | undefined, setId: (id: string) => void): Promise<Outcome> {
  const ctl = new AbortController();
  const stop = () => ctl.abort();
  o.signal.addEventListener('abort', stop, { once: true });
  let idle: NodeJS.Timeout | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, IDLE_TIMEOUT_MS);
  };
  let connected = false;
  try {
    const target = new URL('/api/chain/events', o.url);
    if (lastId === undefined && o.fromHeight !== undefined) target.searchParams.set('fromHeight', String(o.fromHeight));
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (lastId !== undefined) headers['Last-Event-ID'] = lastId;
    touch();
    const res = await fetch(target, { headers, signal: ctl.signal });
    if (res.status === 400 || res.status === 404) {
      const body = (await res.json().catch(() => ({}))) as { error?: string; code?: string };
      return { connected, fatal: `refused: ${res.status} ${body.code ?? ''} ${body.error ?? ''}`.trim() };
    }
    if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
    const parser = createParser({
      onEvent: (m) => {
        if (m.id !== undefined) setId(m.id);
        let data: unknown = m.data;
        try {
          data = JSON.parse(m.data);
        } catch {
          // not JSON: shown as text
        }
        const name = m.event ?? 'message';
        if (name === 'hello') {
          connected = true;
          o.onNotice(`connected to ${o.url}`);
        }
        if (name === 'error') o.onNotice(`server: ${(data as { code?: string }).code ?? ''} ${(data as { error?: string }).error ?? ''}`);
        o.onEvent({ event: name, id: m.id, data });
      },
    });
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      touch();
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
  } catch {
    // refused, reset, aborted or idle: the caller decides whether to retry
  } finally {
    clearTimeout(idle);
    o.signal.removeEventListener('abort', stop);
  }
  return { connected };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

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
    url = new URL(flags.url as string);
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
    return await follow({
      url: url.href,
      fromHeight,
      signal: ctl.signal,
      onEvent: (e) => {
        if (events.has(e.event) && !ctl.signal.aborted) process.stdout.write(`${json ? formatJson(e) : formatHuman(e, colour)}\n`);
      },
      onNotice: (line) => process.stderr.write(`ombra tail: ${line}\n`),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
