/**
 * Whether a subscription's target can be served, checked when it subscribes: an e-mail target
 * needs a mail relay, a webhook's host must resolve to public addresses only (netGuard.ts; each
 * delivery checks again at connect time, so a host that changes its answer later gains nothing).
 */
import { ChainError } from '../../core/errors.ts';
import { ForbiddenTarget, resolvePublic } from './netGuard.ts';

/** What the check needs to know of the node. */
export interface TargetCheckOptions {
  /** A mail relay is configured. */
  mailEnabled: boolean;
  /** Webhook targets may resolve to loopback/private addresses (local set-ups and tests). */
  allowPrivate: boolean;
}

/** Refuses (INVALID_PARAMS) a target this node cannot or must not deliver to. */
export async function checkTarget(channel: 'webhook' | 'email', target: string, opts: TargetCheckOptions): Promise<void> {
  if (channel === 'email') {
    if (!opts.mailEnabled)
      throw new ChainError('INVALID_PARAMS', 'e-mail alerts are not available: this node has no mail relay (--smtp-url)');
    return;
  }
  if (opts.allowPrivate) return;
  try {
    await resolvePublic(new URL(target).hostname);
  } catch (e) {
    if (e instanceof ForbiddenTarget) throw new ChainError('INVALID_PARAMS', `target refused: ${e.message}`);
    throw new ChainError('INVALID_PARAMS', `target host ${new URL(target).hostname.slice(0, 100)} does not resolve`);
  }
}
