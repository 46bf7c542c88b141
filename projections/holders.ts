/**
 * Holder figures: how many accounts hold a balance, and the balance distribution in buckets of
 * whole OMBRA. Both move with each block's balance changes (the top-N list: queries/topHolders.ts).
 */
import { MICRO } from '../core/encoding.ts';
import type { BlockEvent, ChainInfo } from './events.ts';
import type { Projection } from './projection.ts';

/** Bucket lower bounds in whole OMBRA; the last bucket is open. */
const BUCKET_BOUNDS = [0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000] as const;

/** Holder count and distribution. */
export interface HoldersState {
  totalHolders: number;
  buckets: number[];
}

/** The bucket of a positive balance. */
function bucketOf(balance: bigint): number {
  const whole = balance / MICRO;
  let i = 0;
  while (i + 1 < BUCKET_BOUNDS.length && whole >= BigInt(BUCKET_BOUNDS[i + 1])) i++;
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
  version: 1,
  init(info: ChainInfo) {
    const s: HoldersState = { totalHolders: 0, buckets: BUCKET_BOUNDS.map(() => 0) };
    for (const a of info.genesisState.accounts.values()) add(s, a.balance, 1);
    return s;
  },
  apply(s, ev: BlockEvent) {
    const next: HoldersState = { totalHolders: s.totalHolders, buckets: [...s.buckets] };
    for (const c of ev.balances) {
      add(next, c.before, -1);
      add(next, c.after, 1);
    }
    return { state: next };
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
