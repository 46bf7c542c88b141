/**
 * The daily allowance of confirmation mails of one mailbox, whatever its subscriptions do: every
 * confirmation mail the node queues is recorded against the mailbox (not the subscription), in
 * `local:alerts:mailcap`, written in the same batch as the mail, so deleting and resubscribing,
 * or a restart, never gives an address a fresh allowance. Mailboxes are compared as `mailboxOf`
 * folds them.
 */
import { ChainError } from '../../core/errors.ts';
import type { RowOp, Rows } from '../../projections/store.ts';
import { sha } from './alertSecrets.ts';

const DAY_MS = 24 * 3600_000;
/** Forgotten entries are swept at most this often. */
const SWEEP_MS = 60_000;

/**
 * The mailbox an address reaches: case-folded, `+tag` removed, and dots in the local part removed
 * (Gmail delivers `v.ictim@` to `victim@`; elsewhere two addresses that differ only by dots share
 * one allowance, which only makes the cap stricter); `googlemail.com` is `gmail.com`.
 */
export function mailboxOf(address: string): string {
  const a = address.trim().toLowerCase();
  const at = a.lastIndexOf('@');
  const local = a.slice(0, at).split('+')[0].replaceAll('.', '');
  const domain = a.slice(at + 1);
  return `${local}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`;
}

/** At most `perDay` confirmation mails to one mailbox in any 24 hours. */
export class ConfirmMailCap {
  private readonly rows: Rows;
  private readonly perDay: number;
  /** Mailbox hash -> times of its confirmation mails in the last 24 h. */
  private readonly sent = new Map<string, number[]>();
  private sweptAt = 0;

  constructor(rows: Rows, perDay: number) {
    this.rows = rows;
    this.perDay = perDay;
  }

  /** Loads the recorded mails (older ones are dropped at the next sweep). */
  async load(): Promise<void> {
    for await (const [key, value] of this.rows.iterator()) if (Array.isArray(value)) this.sent.set(String(key), value as number[]);
  }

  /**
   * Takes one mail of the allowance of `address`'s mailbox at `now`, in memory at once (so two
   * concurrent subscribes cannot both take the last one); returns the row to write with the mail.
   * RATE_LIMITED when the allowance is spent.
   */
  take(address: string, now: number): RowOp[] {
    const ops = this.sweep(now);
    const key = sha(mailboxOf(address));
    const recent = (this.sent.get(key) ?? []).filter((t) => t > now - DAY_MS);
    if (recent.length >= this.perDay) {
      const again = Math.ceil((recent[0] + DAY_MS - now) / 60_000);
      throw new ChainError(
        'RATE_LIMITED',
        `this address was sent ${recent.length} confirmation mails in the last 24 hours, the most it may get; try again in ${again} minutes`,
      );
    }
    recent.push(now);
    this.sent.set(key, recent);
    return [...ops, { type: 'put', sublevel: this.rows, key, value: recent }];
  }

  /** Forgets mailboxes with no mail in the last 24 h: their deletes, to write with the next mail. */
  private sweep(now: number): RowOp[] {
    if (now - this.sweptAt < SWEEP_MS) return [];
    this.sweptAt = now;
    const ops: RowOp[] = [];
    for (const [key, times] of this.sent) {
      if (times.every((t) => t <= now - DAY_MS)) {
        this.sent.delete(key);
        ops.push({ type: 'del', sublevel: this.rows, key });
      }
    }
    return ops;
  }
}
