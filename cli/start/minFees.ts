/** `--min-fee TYPE=MICRO`: the mempool's per-type fee floor from flags or `OMBRA_MIN_FEES`. */
import { TX_HANDLERS } from '../../core/tx/registry.ts';
import { UsageError } from '../args.ts';

/**
 * Parses `TYPE=MICRO` entries into a floor per type. Refuses unknown types, types without a
 * `fee` field (their escrow is not a fee the proposer earns) and amounts that are not whole micro-units.
 */
export function parseMinFees(entries: readonly string[]): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const entry of entries) {
    const m = /^([A-Z_]+)=(0|[1-9][0-9]{0,29})$/.exec(entry.trim());
    if (!m) throw new UsageError(`--min-fee ${entry} must look like TRANSFER=1000 (a type and whole micro-units)`);
    const handler = TX_HANDLERS.get(m[1]);
    if (!handler) throw new UsageError(`--min-fee: unknown transaction type ${m[1]}`);
    if (!('fee' in handler.schema.fields)) throw new UsageError(`--min-fee: ${m[1]} has no fee field`);
    out[m[1]] = BigInt(m[2]);
  }
  return out;
}
