/** Comparing a data dir's genesis with the one an operator passes. */
import type { Genesis } from '../../core/genesis.ts';

/** Why two genesis files differ, or null when they define the same chain. */
export function genesisMismatch(stored: Genesis, given: Genesis): string | null {
  if (stored.chainId !== given.chainId) return `chainId ${stored.chainId} vs ${given.chainId}`;
  const a = JSON.stringify(canonical(stored));
  const b = JSON.stringify(canonical(given));
  return a === b ? null : `chain ${stored.chainId}: authorities, allocations, timing or forks differ`;
}

function canonical(g: Genesis): unknown {
  const sortObj = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([x], [y]) => (x < y ? -1 : 1)));
  return [
    g.chainId,
    g.timestamp,
    g.blockTimeMs,
    g.authorities,
    sortObj(g.allocations),
    g.blockReward,
    sortObj(g.forks),
    g.finalityDepth ?? null,
  ];
}
