/**
 * What one attempt's outcome does to its row and its subscription (pure; the outbox writes the
 * result). A success resets the subscription's run of failures; a failure extends it, schedules
 * the row's next retry or, after the last, drops the row and records the failure; a run of
 * `disableAfterFailures` failed attempts disables an active subscription.
 */
import type { AttemptResult } from './alertDelivery.ts';
import type { AlertOptions, OutboxRow, SubRecord } from './alertTypes.ts';

/** Where a row stands after an attempt, and whether its subscription was just disabled. */
export interface Outcome {
  row: 'delivered' | 'retry' | 'dropped';
  disabled: boolean;
  error?: string;
}

/** Applies an attempt's result to `row` (its `attempts` already counted) and `sub`, at `end`. */
export function settleAttempt(
  row: OutboxRow,
  sub: SubRecord,
  result: AttemptResult,
  end: number,
  opts: Pick<AlertOptions, 'retryDelaysMs' | 'disableAfterFailures'>,
): Outcome {
  if (result.ok) {
    sub.consecutiveFailures = 0;
    // A confirmation mail is not an alert: it does not count as one delivered.
    if (row.kind !== 'confirm') {
      sub.delivered++;
      sub.lastDeliveredAt = end;
    }
    return { row: 'delivered', disabled: false };
  }
  const error = result.error ?? 'failed';
  sub.consecutiveFailures++;
  let state: Outcome['row'];
  if (row.attempts <= opts.retryDelaysMs.length) {
    row.nextAt = end + opts.retryDelaysMs[row.attempts - 1];
    row.lastError = error;
    state = 'retry';
  } else {
    sub.failed++;
    sub.lastFailure = { deliveryId: row.id, at: end, attempts: row.attempts, error };
    state = 'dropped';
  }
  // A run of failures: the target is dead or refuses us; stop spending attempts on it.
  const disabled = sub.status === 'active' && sub.consecutiveFailures >= opts.disableAfterFailures;
  if (disabled) {
    sub.status = 'disabled';
    sub.disabledAt = end;
    sub.disabledReason = `${sub.consecutiveFailures} consecutive failed attempts; last: ${error}`.slice(0, 300);
  }
  return { row: state, disabled, error };
}
