/**
 * The fields of a transaction worth a glance in `ombra tail`, read from its type's schema (core/tx
 * registry): amounts in OMBRA, counterparties and ids shortened, short names; the fields every
 * transaction has (from, nonce, timestamp, fee, key, signature) and bulky ones (text, blobs, lists)
 * left out. A new type shows its fields here without a change.
 */
import { TX_HANDLERS } from '../../core/tx/registry.ts';
import { formatOmbra } from '../../core/ombraAmount.ts';

const COMMON = new Set(['type', 'from', 'nonce', 'timestamp', 'fee', 'publicKey', 'signature', 'hash']);
/** Text fields shown when their name says they identify something. */
const NAMED = /(id|name|alias|handle|title|model|reason|status|kind)$/i;
const MOST_FIELDS = 5;

function short(s: string): string {
  return s.length > 14 ? `${s.slice(0, 12)}…` : s;
}

/** `to ox1234567890… amount 1.5 OMBRA` for a transfer, `taskId task_ab12… minerId …` for a task response, ... */
export function txFields(tx: Record<string, unknown>): string {
  const schema = TX_HANDLERS.get(String(tx.type))?.schema;
  if (!schema) return '';
  const out: string[] = [];
  for (const [name, spec] of Object.entries(schema.fields)) {
    if (out.length >= MOST_FIELDS) break;
    const v = tx[name];
    if (COMMON.has(name) || v === undefined || v === null) continue;
    if (spec.kind === 'amount' && typeof v === 'string' && /^[0-9]+$/.test(v)) out.push(`${name} ${formatOmbra(BigInt(v))} OMBRA`);
    else if ((spec.kind === 'address' || spec.kind === 'hex') && typeof v === 'string') out.push(`${name} ${short(v)}`);
    else if (typeof v === 'number' || typeof v === 'boolean') out.push(`${name} ${v}`);
    else if (typeof v === 'string' && (NAMED.test(name) || v.length <= 24) && !v.includes('\n'))
      out.push(`${name} ${JSON.stringify(short(v))}`);
  }
  return out.join('  ');
}
