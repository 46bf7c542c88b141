/**
 * A block and its state diff as the sink's rows: pure, so every transaction type's mapping is
 * tested without a database. Columns follow sink/migrations.ts; addresses are the state's
 * lower-case form, amounts micro-units, times the block's.
 */
import type { Block } from '../core/block.ts';
import { type Account, recordsByKind, setsByKind, type StateDiff } from '../core/state.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { TX_HANDLERS } from '../core/tx/registry.ts';
import { stateTx } from '../core/txCodec.ts';
import { type CopyValue, jsonText } from './copyText.ts';

/**
 * The record kinds mirrored into record_versions: what dashboards ask about. Upload chunks,
 * pending uploads and the like-rate bookkeeping are left out (bulky or internal).
 */
export const MIRRORED_KINDS: readonly string[] = [
  'tasks',
  'miners',
  'runs',
  'blobs',
  'posts',
  'follows',
  'likePairs',
  'webSites',
  'webFiles',
  'webReleases',
  'webAliases',
  'nfts',
  'imageNfts',
  'audioNfts',
];

/** The final value of an account a batch touched. */
interface AccountRow {
  balance: bigint;
  nonce: number;
  firstSeen: number;
  lastSeen: number;
  /** The state did not hold it before the batch: it has no row yet (inserted, not upserted). */
  created: boolean;
}

/** The rows of a batch of blocks, per table, plus the accounts to upsert. */
export interface Rows {
  blocks: CopyValue[][];
  transactions: CopyValue[][];
  transfers: CopyValue[][];
  balance_changes: CopyValue[][];
  record_versions: CopyValue[][];
  accounts: Map<string, AccountRow>;
  txCount: number;
}

/** Empty rows. */
export function emptyRows(): Rows {
  return { blocks: [], transactions: [], transfers: [], balance_changes: [], record_versions: [], accounts: new Map(), txCount: 0 };
}

// Per type, its first top-level address field besides `from` (TRANSFER's `to`, a DM's recipient,
// a mint's owner): the transactions row's to_address, even when it names the sender.
const RECIPIENT: ReadonlyMap<string, string> = new Map(
  [...TX_HANDLERS].flatMap(([type, h]) => {
    const name = Object.entries(h.schema.fields).find(([n, spec]) => n !== 'from' && spec.kind === 'address')?.[0];
    return name ? [[type, name] as const] : [];
  }),
);

const big = (v: unknown): string | null => (typeof v === 'string' && /^[0-9]+$/.test(v) ? v : null);

/** The transactions row of `raw` at `position` in `block`. */
function txRow(raw: SignedTx, block: Block, position: number, time: string): CopyValue[] {
  const tx = stateTx(raw);
  const recipient = RECIPIENT.get(tx.type);
  return [
    tx.hash,
    block.index,
    position,
    tx.type,
    tx.from,
    recipient && typeof tx[recipient] === 'string' ? (tx[recipient] as string) : null,
    big(tx.amount),
    big(tx.fee) ?? '0',
    tx.nonce,
    time,
    jsonText(raw),
  ];
}

/**
 * Adds `block`'s rows to `out`. `diff` is its state diff, `before(address)` an account's value
 * before the block (undefined: it did not exist).
 */
export function addBlockRows(out: Rows, block: Block, diff: StateDiff, before: (address: string) => Account | undefined): void {
  const time = new Date(block.timestamp).toISOString();
  let fees = 0n;
  block.transactions.forEach((raw, i) => {
    const row = txRow(raw, block, i, time);
    fees += BigInt(row[7] as string);
    out.transactions.push(row);
    if (raw.type === 'TRANSFER') out.transfers.push([raw.hash, block.index, i, row[4], row[5], row[6], time]);
  });
  out.txCount += block.transactions.length;
  out.blocks.push([
    block.index,
    block.hash,
    block.previousHash,
    time,
    block.proposer.toLowerCase(),
    block.transactions.length,
    fees.toString(),
    block.tokensBurned,
    block.tokensConsumed,
    block.stateRoot,
  ]);
  for (const [address, a] of diff.accounts) {
    const prev = before(address);
    const was = prev?.balance ?? 0n;
    // Storage quota alone (every block credits its proposer) is not a balance change.
    if (prev && prev.balance === a.balance && prev.nonce === a.nonce) continue;
    out.balance_changes.push([address, block.index, was.toString(), a.balance.toString(), (a.balance - was).toString(), a.nonce]);
    const seen = out.accounts.get(address);
    out.accounts.set(address, {
      balance: a.balance,
      nonce: a.nonce,
      firstSeen: seen?.firstSeen ?? block.index,
      lastSeen: block.index,
      created: seen ? seen.created : prev === undefined,
    });
  }
  const records = recordsByKind(diff.records);
  const removed = setsByKind(diff.removed ?? {});
  for (const kind of MIRRORED_KINDS) {
    for (const [id, v] of records[kind] ?? []) out.record_versions.push([kind, id, block.index, jsonText(v)]);
    for (const id of removed[kind] ?? []) out.record_versions.push([kind, id, block.index, null]);
  }
}
