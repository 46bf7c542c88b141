/**
 * Which pending transactions a full mempool gives up for a new one: the fewest lowest-fee run
 * tails of other senders, each strictly cheaper than the newcomer. Planned on copies of the run
 * lengths so that a refusal leaves the pool untouched.
 */
import { better, type MempoolEntry, type MempoolOptions, MempoolPolicyError } from './mempoolOptions.ts';

/** What the pool holds now, or what a newcomer adds to it. */
export interface PoolLoad {
  count: number;
  bytes: number;
  upload: number;
}

/** The evictions that make room: each affected sender's new run length, and the entries that leave. */
export interface EvictionPlan {
  lengths: Map<string, number>;
  victims: MempoolEntry[];
}

/**
 * Plans room for `add` (from `sender`, paying `fee`) in a pool holding `held` in `runs`;
 * throws MEMPOOL_FULL when no such set of evictions exists. Plans nothing when it already fits.
 */
export function planEviction(
  runs: ReadonlyMap<string, readonly MempoolEntry[]>,
  held: PoolLoad,
  sender: string,
  fee: bigint,
  add: PoolLoad,
  opts: Pick<MempoolOptions, 'maxSize' | 'maxBytes' | 'maxUploadBytes'>,
): EvictionPlan {
  const fitsAll = (n: number, b: number) => n + add.count <= opts.maxSize && b + add.bytes <= opts.maxBytes;
  const fitsUpload = (u: number) => add.upload <= 0 || u + add.upload <= opts.maxUploadBytes;
  let n = held.count;
  let b = held.bytes;
  let u = held.upload;
  const lengths = new Map<string, number>();
  const victims: MempoolEntry[] = [];
  while (!fitsAll(n, b) || !fitsUpload(u)) {
    // Only the chunk budget is short: only runs still holding chunks can help.
    const chunksOnly = fitsAll(n, b);
    let victim: MempoolEntry | undefined;
    let owner = '';
    let ownerLength = 0;
    for (const [s, run] of runs) {
      if (s === sender) continue;
      const l = lengths.get(s) ?? run.length;
      if (l === 0) continue;
      if (chunksOnly && !run.slice(0, l).some((x) => x.upload > 0)) continue;
      const tail = run[l - 1];
      if (!victim || better(victim, tail)) {
        victim = tail;
        owner = s;
        ownerLength = l;
      }
    }
    if (!victim || victim.fee >= fee)
      throw new MempoolPolicyError(
        'MEMPOOL_FULL',
        `mempool is full (${opts.maxSize} transactions, ${opts.maxBytes} bytes, ${opts.maxUploadBytes} bytes of chunks) with fees at or above ${fee}`,
      );
    lengths.set(owner, ownerLength - 1);
    victims.push(victim);
    n--;
    b -= victim.bytes;
    u -= victim.upload;
  }
  return { lengths, victims };
}
