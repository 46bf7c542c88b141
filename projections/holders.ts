/**
 * Holder figures: how many accounts hold a balance, the balance distribution in buckets of whole
 * OMBRA, and every holder ranked in rows (`r!<rank>!<address>`, largest balance first, then the
 * address), so the top holders at any offset are a range read (queries/topHolders.ts). All of it
 * moves with each block's balance changes: nothing scans the accounts.
 */
import { MICRO } from '../core/encoding.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { row } from './rows.ts';

/** Bucket lower bounds in whole OMBRA; the last bucket is open. */
const BUCKET_BOUNDS = [0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000] as const;
/** The same as big integers, made once (every balance change compares with them). */
const BUCKET_LOWS = BUCKET_BOUNDS.map(BigInt);

/** Holder count and distribution. */
export interface HoldersState {
  totalHolders: number;
  buckets: number[];
  /** The genesis holders, until the first block writes their rank rows (`[address, balance]`). */
  genesis?: [string, string][];
}

/** A ranked holder. */
export interface Holder {
  address: string;
  balance: bigint;
}

/**
 * A balance's place in key order, largest first: its digit count complemented (two digits), then
 * its digits complemented, so a longer balance and, at equal length, a larger one sort first.
 */
function rankOf(balance: bigint): string {
  const digits = balance.toString();
  const length = String(99 - digits.length).padStart(2, '0');
  // Each digit's complement (9 - d) at once: 99...9 (as many nines as digits) minus the balance
  // borrows nowhere, and its leading nines-minus-nines come back as zeros (two ranks a balance
  // change, every block replayed: one subtraction instead of a string built digit by digit).
  if (balance >= 0n) return length + (ninesOf(digits.length) - balance).toString().padStart(digits.length, '0');
  let out = length;
  for (let i = 0; i < digits.length; i++) out += COMPLEMENT[digits.charCodeAt(i) - 48];
  return out;
}

/** The complement (9 - d) of each decimal digit d, by d. */
const COMPLEMENT = '9876543210';

/** 10^n - 1 by n, made on first use. */
const NINES: bigint[] = [];
function ninesOf(n: number): bigint {
  let nines = NINES[n];
  if (nines === undefined) {
    nines = 10n ** BigInt(n) - 1n;
    NINES[n] = nines;
  }
  return nines;
}

/** `r!<rank>!<address>` -> the balance (decimal): every holder, in rank order. */
export const rankRow = row<string, Holder>('r!', (h) => `${rankOf(h.balance)}!${h.address}`);

/** The holder a rank row names. */
export function holderOf(key: string, balance: unknown): Holder {
  return { address: key.slice(key.lastIndexOf('!') + 1), balance: BigInt(rankRow.value(balance)) };
}

/** The bucket of a positive balance. */
function bucketOf(balance: bigint): number {
  const whole = balance / MICRO;
  let i = 0;
  while (i + 1 < BUCKET_BOUNDS.length && whole >= BUCKET_LOWS[i + 1]) i++;
  return i;
}

/** Bucket labels as the spec writes them: `<low>-<high> OMBRA`, last `<low>+ OMBRA`. */
export function bucketLabels(): string[] {
  return BUCKET_BOUNDS.map((low, i) => (i + 1 < BUCKET_BOUNDS.length ? `${low}-${BUCKET_BOUNDS[i + 1]} OMBRA` : `${low}+ OMBRA`));
}

function add(s: HoldersState, balance: bigint, sign: 1 | -1): void {
  if (balance <= 0n) return;
  s.totalHolders += sign;
  s.buckets[bucketOf(balance)] += sign;
}

/** Holder count and distribution buckets. */
export const holdersProjection: Projection<HoldersState, HoldersState> = {
  name: 'holders',
  // 2: the holders ranked in rows.
  version: 2,
  init(info: ChainInfo) {
    const s: HoldersState = { totalHolders: 0, buckets: BUCKET_BOUNDS.map(() => 0), genesis: [] };
    for (const [address, a] of info.genesisState.accounts) {
      add(s, a.balance, 1);
      if (a.balance > 0n) s.genesis?.push([address, a.balance.toString()]);
    }
    return s;
  },
  apply(s, ev: BlockEvent) {
    const next: HoldersState = { totalHolders: s.totalHolders, buckets: [...s.buckets] };
    // Net effect per key: a holder that moves twice in a block writes its last place only.
    const rows = new Map<string, KvOp>();
    for (const [address, balance] of s.genesis ?? []) {
      const key = rankRow.key({ address, balance: BigInt(balance) });
      rows.set(key, { type: 'put', key, value: balance });
    }
    for (const c of ev.balances) {
      add(next, c.before, -1);
      add(next, c.after, 1);
      if (c.before > 0n) {
        const key = rankRow.key({ address: c.address, balance: c.before });
        // A rank this block put fresh and now leaves was never stored: nothing to delete.
        const put = rows.get(key);
        if (put?.type === 'put' && put.fresh) rows.delete(key);
        else rows.set(key, { type: 'del', key });
      }
      if (c.after > 0n) {
        const key = rankRow.key({ address: c.address, balance: c.after });
        // Fresh unless this block already named the key: a holder's rank row exists only at its
        // balance when the block began, which its first change deletes above. A fresh rank put
        // and deleted within one batch never reaches the disk (projections/foldBatcher.ts).
        rows.set(
          key,
          rows.has(key) ? { type: 'put', key, value: c.after.toString() } : { type: 'put', key, value: c.after.toString(), fresh: true },
        );
      }
    }
    const ops = [...rows.values()];
    return { state: next, ops };
  },
  save: (s) => s,
  load: (saved) => saved,
};

/** Ranked holders as served, each with its share of `totalSupply` (the ranking: queries/topHolders.ts). */
export function holderRows(ranked: readonly { address: string; balance: bigint }[], totalSupply: bigint) {
  return ranked.map(({ address, balance }) => ({
    address,
    balance: balance.toString(),
    percentage: totalSupply === 0n ? 0 : Number((balance * 1_000_000n) / totalSupply) / 10_000,
  }));
}
