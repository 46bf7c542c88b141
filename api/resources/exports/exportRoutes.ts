/**
 * CSV exports (./exportEndpoints.ts): an address's transactions with the explorer's filters,
 * a block's transactions, the task list. Streamed a page of rows at a time, at most
 * MAX_CSV_ROWS rows; cells that a spreadsheet would read as a formula are quoted with a `'`.
 */
import type { ListedTx } from '../../../core/confirmedTx.ts';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { Hono, type Context } from 'hono';
import { formatOmbra } from '../../../core/ombraAmount.ts';
import type { ApiDeps } from '../../context.ts';
import { byteStream } from '../../contentResponse.ts';
import { EXPORT_ENDPOINTS as E, MAX_CSV_ROWS } from './exportEndpoints.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { notFound } from '../../errors.ts';
import { streamed } from '../../streamedAnswer.ts';

/** One CSV cell: quoted when it holds a comma, quote or line break; a leading =, +, - or @ made inert. */
export function csvCell(v: unknown): string {
  let s = v === undefined || v === null ? '' : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

const line = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A CSV answer from header and rows (a page of rows per chunk). */
function csvAnswer(c: Context, name: string, head: string[], pages: AsyncGenerator<unknown[][]>): Response {
  const encoder = new TextEncoder();
  async function* bytes(): AsyncGenerator<Uint8Array> {
    yield encoder.encode(line(head));
    for await (const rows of pages) if (rows.length) yield encoder.encode(rows.map(line).join(''));
  }
  return streamed(
    c.body(byteStream(bytes()), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}.csv"`,
    }),
  );
}

/** A micro-OMBRA amount as OMBRA, or empty. */
const ombra = (micro: unknown) => (typeof micro === 'string' && /^[0-9]+$/.test(micro) ? formatOmbra(BigInt(micro)) : '');

const TX_HEAD = ['hash', 'block', 'time', 'type', 'from', 'to', 'amount_ombra', 'fee_ombra', 'amount_micro', 'fee_micro'];
const txCells = (t: SignedTx, block: number, time: number) => [
  t.hash,
  block,
  new Date(time).toISOString(),
  t.type,
  t.from,
  t.to ?? '',
  ombra(t.amount),
  ombra(t.fee),
  t.amount ?? '',
  t.fee ?? '',
];

/** The explorer's filters of an address's transactions. */
export interface TxFilter {
  type?: string;
  direction?: 'in' | 'out' | 'any';
  since?: number;
  until?: number;
}

/** True when a filter is set. */
export const filtering = (f: TxFilter) =>
  Boolean(f.type || (f.direction && f.direction !== 'any') || f.since !== undefined || f.until !== undefined);

/** Pages of `address`'s transactions that pass `f`, newest first, from its newest MAX_CSV_ROWS. */
export async function* filteredTxs(queries: ApiDeps['queries'], address: string, f: TxFilter): AsyncGenerator<ListedTx[]> {
  let cursor: number | undefined;
  for (let scanned = 0; scanned < MAX_CSV_ROWS; ) {
    const page = await queries.chain.addressTxs(address, Math.min(100, MAX_CSV_ROWS - scanned), 0, cursor);
    scanned += page.txs.length;
    yield page.txs.filter((t) => {
      const out = t.from === address;
      if (f.type && t.type !== f.type) return false;
      if ((f.direction === 'out' && !out) || (f.direction === 'in' && out)) return false;
      // The time the chain recorded (the block's), as Etherscan and Blockscout filter: not the signed time.
      return !((f.since !== undefined && t.blockTime < f.since) || (f.until !== undefined && t.blockTime > f.until));
    });
    if (page.nextCursor === null || page.txs.length === 0) return;
    cursor = Number(page.nextCursor);
  }
}

/** CSV export routes. */
export function exportRoutes({ queries }: ApiDeps): Hono {
  const app = new Hono();

  return resource(
    E,
    {
      getApiCsvAddressAddr: (c, { params: { addr: address }, query: { type, direction, since, until } }) => {
        async function* pages(): AsyncGenerator<unknown[][]> {
          for await (const txs of filteredTxs(queries, address, { type, direction, since, until }))
            yield txs.map((t) => [...txCells(t, t.blockHeight, t.blockTime), t.from === address ? 'out' : 'in']);
        }
        return csvAnswer(c, `${address}-transactions`, [...TX_HEAD, 'direction'], pages());
      },
      getApiCsvBlockIndex: async (c, { params: { index } }) => {
        const b = Number(index) <= queries.chain.height() ? await queries.chain.block(Number(index)) : null;
        if (!b) notFound(`block ${index}`);
        async function* pages(): AsyncGenerator<unknown[][]> {
          yield (b?.transactions ?? []).map((t) => txCells(t, b?.index ?? 0, b?.timestamp ?? 0));
        }
        return csvAnswer(c, `block-${index}-transactions`, TX_HEAD, pages());
      },
      getApiCsvTasks: (c, { query: { status } }) => {
        async function* pages(): AsyncGenerator<unknown[][]> {
          for (let offset = 0; offset < MAX_CSV_ROWS; offset += 100) {
            const page = await queries.tasks.list(Math.min(100, MAX_CSV_ROWS - offset), offset, status);
            yield page.tasks.map((t) => [
              t.taskId,
              t.taskType,
              t.status,
              t.submitter,
              t.responseCount,
              ombra(t.fee),
              t.fee,
              new Date(t.submittedAt).toISOString(),
            ]);
            if (page.tasks.length < 100) return;
          }
        }
        return csvAnswer(c, 'tasks', ['task', 'type', 'status', 'submitter', 'responses', 'fee_ombra', 'fee_micro', 'submitted'], pages());
      },
    },
    { app },
  );
}
