/**
 * The transaction schema DSL. One `defineTx` per type is the single source of its field order
 * (object key order), validation, TypeScript type and the generated protocol reference.
 */
import { isAddressAnyCase } from './address.ts';
import { isBigIntString, isCanonicalBase64, isHex, isUint, utf8Length } from './encoding.ts';
import { checkObject, stateFormOf, type AnyFields, type FieldSpec, type InferFields } from './fieldSpec.ts';

type FieldData = Pick<FieldSpec, 'bounds' | 'values' | 'fields'>;

function spec<T>(kind: string, doc: string, check: (v: unknown) => string | null, data: FieldData = {}): FieldSpec<T, false> {
  return { kind, doc, optional: false, check, ...data };
}

const ID_RE = /^[A-Za-z0-9_-]+$/;

/** Field builders. */
export const f = {
  /** An address in any case (the spec's addresses are case-insensitive); the state reads it lower-cased. */
  address: (): FieldSpec<string, false> => ({
    ...spec<string>('address', 'address `ox` + 40 hex, any case (read lower-case)', (v) =>
      isAddressAnyCase(v) ? null : 'must be an address: ox + 40 hex',
    ),
    stateForm: (v) => (v as string).toLowerCase(),
  }),
  amount: () =>
    spec<string>('amount', 'big integer string, micro-units', (v) =>
      isBigIntString(v) ? null : 'must be a decimal big-integer string without sign or leading zeros',
    ),
  uint: (max = Number.MAX_SAFE_INTEGER, min = 0) =>
    spec<number>(
      'uint',
      `integer ${min}..${max}`,
      (v) => (isUint(v) && v >= min && v <= max ? null : `must be an integer in ${min}..${max}`),
      {
        bounds: { min, max },
      },
    ),
  hex: (chars: number) =>
    spec<string>(
      'hex',
      `${chars} lowercase hex characters`,
      (v) => (isHex(v, chars) ? null : `must be ${chars} lowercase hex characters`),
      {
        bounds: { min: chars, max: chars },
      },
    ),
  /** Free text limited in UTF-8 bytes. */
  text: (maxBytes: number, minBytes = 0) =>
    spec<string>(
      'text',
      `string of ${minBytes}..${maxBytes} UTF-8 bytes`,
      (v) =>
        typeof v === 'string' && utf8Length(v) <= maxBytes && utf8Length(v) >= minBytes
          ? null
          : `must be a string of ${minBytes}..${maxBytes} UTF-8 bytes`,
      { bounds: { min: minBytes, max: maxBytes } },
    ),
  /** Free text limited in characters (Unicode code points), as profile names are. */
  chars: (maxChars: number, minChars = 0) =>
    spec<string>(
      'text',
      `string of ${minChars}..${maxChars} characters`,
      (v) => {
        const n = typeof v === 'string' ? [...v].length : -1;
        return n >= minChars && n <= maxChars ? null : `must be a string of ${minChars}..${maxChars} characters`;
      },
      { bounds: { min: minChars, max: maxChars } },
    ),
  /** An identifier: letters, digits, `_` and `-`. */
  id: (maxChars = 64, minChars = 1) =>
    spec<string>(
      'id',
      `identifier [A-Za-z0-9_-]{${minChars},${maxChars}}`,
      (v) =>
        typeof v === 'string' && v.length >= minChars && v.length <= maxChars && ID_RE.test(v)
          ? null
          : `must match [A-Za-z0-9_-]{${minChars},${maxChars}}`,
      { bounds: { min: minChars, max: maxChars } },
    ),
  pattern: (re: RegExp, doc: string) =>
    spec<string>('pattern', doc, (v) => (typeof v === 'string' && re.test(v) ? null : `must be ${doc}`)),
  /** Canonical base64 (padded, no stray bits: it re-encodes to itself) of minBytes..maxBytes decoded bytes. */
  base64: (maxBytes: number, minBytes = 0) =>
    spec<string>(
      'base64',
      `canonical base64 of ${minBytes}..${maxBytes} bytes`,
      (v) =>
        typeof v === 'string' && isCanonicalBase64(v, minBytes, maxBytes)
          ? null
          : `must be canonical base64 (padded) of ${minBytes}..${maxBytes} bytes`,
      { bounds: { min: minBytes, max: maxBytes } },
    ),
  oneOf: <const V extends readonly string[]>(values: V) =>
    spec<V[number]>(
      'enum',
      `one of ${values.map((x) => `\`${x}\``).join(', ')}`,
      (v) => (typeof v === 'string' && values.includes(v) ? null : `must be one of ${values.join(', ')}`),
      { values },
    ),
  bool: () => spec<boolean>('bool', 'boolean', (v) => (typeof v === 'boolean' ? null : 'must be a boolean')),
  /** An array of strings, each checked by `item`. */
  strings: (maxItems: number, item: FieldSpec<string, false>): FieldSpec<string[], false> => ({
    ...spec<string[]>(
      'strings',
      `array of at most ${maxItems}: ${item.doc}`,
      (v) => {
        if (!Array.isArray(v) || v.length > maxItems) return `must be an array of at most ${maxItems} items`;
        for (let i = 0; i < v.length; i++) {
          const why = item.check(v[i]);
          if (why) return `[${i}] ${why}`;
        }
        return null;
      },
      { bounds: { min: 0, max: maxItems } },
    ),
    ...listStateForm(item.stateForm),
  }),
  /** An array of objects with their own ordered fields. */
  list: <F extends AnyFields>(maxItems: number, fields: F): FieldSpec<InferFields<F>[], false> => ({
    ...spec<InferFields<F>[]>(
      'list',
      `array of at most ${maxItems} {${Object.keys(fields).join(', ')}}`,
      (v) => {
        if (!Array.isArray(v) || v.length > maxItems) return `must be an array of at most ${maxItems} items`;
        for (let i = 0; i < v.length; i++) {
          const why = checkObject(v[i], fields);
          if (why) return `[${i}]${why.startsWith('.') ? '' : ' '}${why}`;
        }
        return null;
      },
      { bounds: { min: 0, max: maxItems }, fields },
    ),
    ...(Object.values(fields).some((f) => f.stateForm)
      ? { stateForm: (v: unknown) => mapSame(v as unknown[], (o) => stateFormOf(o as Record<string, unknown>, fields)) }
      : {}),
  }),
  /** Marks a field optional: absent fields are left out of the payload, never null. */
  optional: <T>(s: FieldSpec<T, false>): FieldSpec<T, true> => ({ ...s, optional: true }),
};

/** `xs` mapped by `f`, or `xs` itself when `f` changed no item. */
function mapSame(xs: readonly unknown[], f: (v: unknown) => unknown): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < xs.length; i++) {
    const v = f(xs[i]);
    if (v === xs[i]) continue;
    out ??= xs.slice();
    out[i] = v;
  }
  return (out ?? xs) as unknown[];
}

/** A list's state form: each item's, when its items have one. */
function listStateForm(item: ((v: unknown) => unknown) | undefined): { stateForm?: (v: unknown) => unknown } {
  return item ? { stateForm: (v: unknown) => mapSame(v as unknown[], item) } : {};
}

/** Which fork activates a type or a rule: 1 is genesis, 2..7 the named forks. */
export type ForkId = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The fields every transaction carries (besides `type` and `publicKey`). */
export interface BaseFields {
  from: FieldSpec<string, false>;
  nonce: FieldSpec<number, false>;
  timestamp: FieldSpec<number, false>;
}

/** A live-stream event a type announces when included (e.g. the WebSocket `agent` channel). */
export interface TxEvent<Field extends string = string> {
  readonly channel: string;
  readonly event: string;
  /** Payload fields copied into the event, in this order, when present. */
  readonly fields: readonly Field[];
}

/** A transaction type's schema. */
export interface TxSchema<Type extends string = string, F extends AnyFields = AnyFields> {
  readonly type: Type;
  readonly family: string;
  readonly fork: ForkId;
  readonly doc: string;
  /** Body fields in canonical order (between `type` and `publicKey`). */
  readonly fields: F;
  /** Where its micro-units go, for the protocol reference (required of executed types, by test). */
  readonly moneyFlow?: string;
  readonly event?: TxEvent;
}

/** Defines a transaction type. The key order of `fields` is the canonical hash order. */
export function defineTx<const Type extends string, F extends AnyFields & BaseFields>(
  s: TxSchema<Type, F> & { event?: TxEvent<keyof F & string> },
): TxSchema<Type, F> {
  return s;
}

/** The unsigned payload a schema describes, `type` first. */
export type PayloadOf<S> = S extends TxSchema<infer Type, infer F> ? { type: Type } & InferFields<F> : never;
