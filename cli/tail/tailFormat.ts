/** How `ombra tail` prints events: aligned columns for people (coloured on a TTY), or NDJSON. */
import { txFields } from './tailTx.ts';

/** One received SSE event. */
export interface TailEvent {
  event: string;
  id?: string;
  data: unknown;
}

const COLOURS: Record<string, string> = { block: '32', tx: '36', reorg: '31', error: '31', hello: '35', ping: '2', snapshot: '33' };

// biome-ignore lint/suspicious/noExplicitAny: tail prints whatever fields an event carries
type EventData = Record<string, any>;

/** An event's data as its fields (none when it is not an object). */
const dataOf = (e: TailEvent): EventData => (isData(e.data) ? e.data : {});
function isData(v: unknown): v is EventData {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short form of a hash or address: the first 10 characters and an ellipsis. */
function short(s: unknown): string {
  return typeof s === 'string' && s.length > 12 ? `${s.slice(0, 10)}…` : String(s ?? '');
}

/** The event-specific columns. */
function describe(e: TailEvent): string {
  const d = dataOf(e);
  switch (e.event) {
    case 'block': {
      const n = Array.isArray(d.transactions) ? d.transactions.length : (d.txCount ?? 0);
      return `${`#${d.index}`.padEnd(10)} ${`${n} tx${n === 1 ? '' : 's'}`.padEnd(9)} hash ${short(d.hash)}  proposer ${short(d.proposer)}`;
    }
    case 'tx':
      // A mempool acceptance carries type and hash; the block that includes it shows its fields.
      return `${String(d.txType).padEnd(20)} hash ${short(d.hash)}  pending`;
    case 'reorg':
      return `from #${d.fromHeight}  old head #${d.oldHead?.index} ${short(d.oldHead?.hash)}  new head #${d.newHead?.index} ${short(d.newHead?.hash)}`;
    case 'hello':
      return `height ${d.height}  head ${short(d.latestBlockHash)}`;
    case 'ping':
      return `ts ${d.ts}`;
    case 'error':
      return `${d.code}: ${d.error}`;
    default:
      return JSON.stringify(e.data);
  }
}

/** One line's `HH:MM:SS.mmm  event  columns`, the event name coloured when `colour`. */
function line(time: Date, event: string, columns: string, colour: boolean): string {
  const t = time.toISOString().slice(11, 23);
  const name = event.padEnd(6);
  const code = COLOURS[event];
  const painted = colour && code ? `\x1b[${code}m${name}\x1b[0m` : name;
  const stamp = colour ? `\x1b[2m${t}\x1b[0m` : t;
  return `${stamp}  ${painted} ${columns}`;
}

/**
 * `HH:MM:SS.mmm  event  columns...`. A block is stamped with its own time (so replayed blocks show
 * when they were made); with `withTxs`, each transaction it includes follows on its own line with
 * the fields of its type. Other events are stamped with `now`.
 */
export function formatHuman(e: TailEvent, colour: boolean, now = new Date(), withTxs = false): string {
  const d = dataOf(e);
  const blockTime = e.event === 'block' && Number.isSafeInteger(d.timestamp) ? new Date(d.timestamp) : null;
  const head = line(blockTime ?? now, e.event, describe(e), colour);
  if (!blockTime || !withTxs || !Array.isArray(d.transactions)) return head;
  const txs = d.transactions.map((tx: EventData) =>
    line(blockTime, 'tx', `${String(tx.type).padEnd(20)} hash ${short(tx.hash)}  ${txFields(tx)}`.trimEnd(), colour),
  );
  return [head, ...txs].join('\n');
}

/** One NDJSON line: `{"event", "id"?, "data"}`. */
export function formatJson(e: TailEvent): string {
  return JSON.stringify(e.id === undefined ? { event: e.event, data: e.data } : { event: e.event, id: e.id, data: e.data });
}

/** Whether to colour: stdout is a terminal and NO_COLOR is not set. */
export function wantsColour(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}
