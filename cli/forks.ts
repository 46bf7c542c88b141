/** Fork-height overrides from the environment, as on the live network. */
import type { ForkHeights } from '../core/genesis.ts';
import { UsageError } from './args.ts';

const VARS: [keyof ForkHeights, string][] = [
  [2, 'OMBRA_FORK_HEIGHT'],
  [3, 'OMBRA_FORK_HEIGHT_V3'],
  [4, 'OMBRA_FORK_HEIGHT_V4'],
  [5, 'OMBRA_FORK_HEIGHT_V5'],
  [6, 'OMBRA_FORK_HEIGHT_V6'],
  [7, 'OMBRA_FORK_HEIGHT_V7'],
];

/** Reads OMBRA_FORK_HEIGHT (fork 2) and OMBRA_FORK_HEIGHT_V3.._V7. */
export function forkOverridesFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<ForkHeights> {
  const out: Partial<ForkHeights> = {};
  for (const [fork, name] of VARS) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    if (!/^[0-9]{1,15}$/.test(v)) throw new UsageError(`${name} must be a block height`);
    out[fork] = Number(v);
  }
  return out;
}
