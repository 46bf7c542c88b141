/** The definitions of the CSV exports: an address's transactions, a block's, the task list. */
import { ChainError } from '../../../core/errors.ts';
import { TASK_STATUSES } from '../../../core/tx/task/task.ts';
import type { Checked } from '../../endpoints/endpoint.ts';
import { endpoints } from '../../endpoints/endpoint.ts';
import { addressParam, oneOfParam } from '../../endpoints/params.ts';

/** Most rows of one export (the newest first); a longer history is cut there. */
export const MAX_CSV_ROWS = 10_000;

const CSV = (what: string) => ({
  contentType: 'text/csv',
  description: `${what} as CSV (RFC 4180, a header line first), streamed; at most ${MAX_CSV_ROWS.toLocaleString('en-US')} rows, newest first`,
});

/** An optional epoch-ms bound. */
const msBound = (description: string): Checked<number | undefined> => ({
  schema: { type: 'integer', minimum: 0 },
  description,
  parse: (s) => {
    if (s === undefined || s === '') return undefined;
    if (!/^[0-9]{1,15}$/.test(s)) throw new ChainError('INVALID_PARAMS', 'since and until are times in epoch ms');
    return Number(s);
  },
  example: 0,
});

/** An optional transaction type. */
const txType: Checked<string | undefined> = {
  schema: { type: 'string', pattern: '^[A-Z0-9_]{2,40}$' },
  description: 'only transactions of this type',
  parse: (s) => {
    if (s === undefined || s === '') return undefined;
    if (!/^[A-Z0-9_]{2,40}$/.test(s)) throw new ChainError('INVALID_PARAMS', 'type must be a transaction type such as TRANSFER');
    return s;
  },
  example: 'TRANSFER',
};

/** The filters of an address's transactions (its JSON list and its CSV). */
export const TX_FILTERS = {
  type: txType,
  direction: oneOfParam('direction', ['in', 'out', 'any'] as const, 'in: sent by others; out: sent by the address', 'any'),
  since: msBound("only transactions whose block was recorded at or after this time (the block's timestamp, epoch ms)"),
  until: msBound("only transactions whose block was recorded at or before this time (the block's timestamp, epoch ms)"),
};

/** CSV export routes. */
export const EXPORT_ENDPOINTS = endpoints({
  getApiCsvAddressAddr: {
    method: 'GET',
    path: '/api/csv/address/:addr',
    tag: 'wallet',
    summary: "An address's transactions as CSV, with the explorer's filters (type, direction, time)",
    description:
      "The same transactions as /api/address/{addr}/txs, newest first, filtered: `type` keeps one transaction type, `direction` `out` (sent by the address) or `in` (sent by others), `since` and `until` bound the time the chain recorded the transaction (its block's timestamp, not the signed time; epoch ms, inclusive), as is the `time` column. Of the address's newest 10,000 transactions.",
    params: { addr: addressParam() },
    query: TX_FILTERS,
    ok: CSV('the transactions'),
  },
  getApiCsvBlockIndex: {
    method: 'GET',
    path: '/api/csv/block/:index',
    tag: 'blocks',
    summary: "A block's transactions as CSV, in block order",
    params: { index: { schema: { type: 'string', pattern: '^[0-9]{1,15}$' }, description: 'height', example: '1' } },
    ok: CSV('the transactions'),
    errors: [404],
  },
  getApiCsvTasks: {
    method: 'GET',
    path: '/api/csv/tasks',
    tag: 'tasks',
    summary: 'The task list as CSV, newest first, with the task list filter (status)',
    query: { status: oneOfParam('status', TASK_STATUSES, 'only tasks in this status', 'all') },
    ok: CSV('the tasks'),
  },
});
