/**
 * OMBRA amounts for people: decimal OMBRA (`1.5`) <-> micro-units (1 OMBRA = 1,000,000). Parsed
 * as text straight into a bigint, never through a float, so every amount is exact.
 */

/** Micro-units in one OMBRA. */
const MICRO_PER_OMBRA = 1_000_000n;
/** Decimals an OMBRA amount may carry (one micro-unit). */
const OMBRA_DECIMALS = 6;
/** The largest amount the protocol's big integers carry: 78 decimal digits of micro-units. */
const MAX_MICRO = 10n ** 78n - 1n;

/** Why an amount was refused: one line for the operator. */
export class AmountError extends Error {}

/** Parses decimal OMBRA (`1`, `1.5`, `0.000001`, `.5`) to micro-units; refuses signs, exponents, junk and more than 6 decimals. */
export function parseOmbra(text: string): bigint {
  const s = text.trim();
  const m = /^([0-9]*)(?:\.([0-9]*))?$/.exec(s);
  if (!m || (m[1] === '' && (m[2] ?? '') === ''))
    throw new AmountError(
      s.startsWith('-')
        ? `amount must not be negative, got ${s.slice(0, 40)}`
        : `amount must be a decimal number of OMBRA like 1.5, got ${s.slice(0, 40)}`,
    );
  const fraction = m[2] ?? '';
  if (fraction.length > OMBRA_DECIMALS)
    throw new AmountError(`amount has more than ${OMBRA_DECIMALS} decimals (1 micro-unit = 0.000001 OMBRA), got ${s.slice(0, 40)}`);
  const micro = BigInt(m[1] || '0') * MICRO_PER_OMBRA + BigInt(fraction.padEnd(OMBRA_DECIMALS, '0') || '0');
  if (micro > MAX_MICRO) throw new AmountError('amount is too large');
  return micro;
}

/**
 * Micro-units as decimal OMBRA, without trailing zeros: 1500000n -> "1.5", 1n -> "0.000001";
 * `grouped` puts thousands separators in the whole part, as people read it (1234500000n ->
 * "1,234.5"; the explorer's figures).
 */
export function formatOmbra(micro: bigint, { grouped = false }: { grouped?: boolean } = {}): string {
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  const whole = abs / MICRO_PER_OMBRA;
  const fraction = (abs % MICRO_PER_OMBRA).toString().padStart(OMBRA_DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${grouped ? whole.toLocaleString('en-US') : whole}${fraction ? `.${fraction}` : ''}`;
}

/** An amount for a message: OMBRA with the exact micro-units beside, `1.5 OMBRA (1500000 micro-units)`. */
export function ombraWithMicro(micro: bigint): string {
  return `${formatOmbra(micro)} OMBRA (${micro} micro-units)`;
}
