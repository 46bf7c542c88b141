/** Routes of a feature that activates with a fork answer 403 FORK_NOT_ACTIVE before it. */
import type { MiddlewareHandler } from 'hono';
import { ChainError } from '../core/errors.ts';
import { forkActive } from '../core/genesis.ts';
import type { ForkId } from '../core/schema.ts';
import type { HeadReader } from '../node/ports.ts';

/** Middleware refusing every request while the next block's height is below the fork. */
export function forkGate(chain: Pick<HeadReader, 'genesis' | 'nextHeight'>, fork: ForkId, what: string): MiddlewareHandler {
  return async (_c, next) => {
    const height = chain.nextHeight();
    if (!forkActive(chain.genesis.forks, fork, height)) {
      throw new ChainError(
        'FORK_NOT_ACTIVE',
        `fork not active: ${what} needs fork ${fork} (height ${chain.genesis.forks[fork as 2]}), next block is ${height}`,
      );
    }
    await next();
  };
}
