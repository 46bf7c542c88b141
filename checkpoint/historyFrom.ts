/**
 * History below an installed checkpoint, fetched from peers for its background verification
 * (checkpoint/checkpointVerifier.ts): asked again every second while no peer can answer, and
 * given up on, with a reason the operator can act on, once no peer served it for the whole wait.
 */
import type { Block } from '../core/block.ts';
import { errorMessage } from '../core/errors.ts';
import type { Logger } from '../node/log.ts';

/** The wait before asking peers again when none could answer. */
const RETRY_MS = 1000;

/** Attempts between two warnings that the verification waits for a peer (the first one warns). */
const WARN_EVERY = 30;

/** No peer answered with history within the wait. */
export class HistoryUnavailable extends Error {}

/** Where history comes from, how long to wait for it, and when to stop asking. */
export interface HistorySource {
  /** Blocks from..to (a prefix of it) from a peer; throws when no peer can answer now. */
  fetchHistory: (from: number, to: number) => Promise<Block[]>;
  /** How long to keep asking, from the first unanswered request. */
  historyWaitMs: number;
  /** True once the verification stopped: the wait ends with nothing. */
  stopped: () => boolean;
  log: Logger;
}

/**
 * Blocks from `from` (at most to `to`) as JSON texts, asked for until a peer answers; throws
 * HistoryUnavailable after `historyWaitMs` without one, and answers nothing once stopped.
 */
export async function historyFrom(from: number, to: number, source: HistorySource): Promise<string[]> {
  const since = Date.now();
  let last = '';
  for (let attempt = 0; !source.stopped(); attempt++) {
    try {
      const blocks = await source.fetchHistory(from, to);
      if (blocks.length > 0) return blocks.map((b) => JSON.stringify(b));
      last = 'no peer had them';
    } catch (e) {
      last = errorMessage(e);
      if (attempt % WARN_EVERY === 0) source.log.warn('checkpoint verification waits for a peer with history', { from, error: last });
    }
    if (Date.now() - since >= source.historyWaitMs)
      throw new HistoryUnavailable(
        `no peer served blocks ${from}..${to} below the checkpoint within ${source.historyWaitMs} ms (${last.slice(0, 200)}); restart with a --peer that holds the history`,
      );
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  return [];
}
