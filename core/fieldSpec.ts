/**
 * A transaction field's rule (`FieldSpec`, what core/schema.ts's builders make) and checking an
 * object against an ordered set of them: `checkObject` validates, `stateFormOf` gives the form
 * the state reads (addresses lower-cased).
 */
/** One field's rule. `T` is the field's TypeScript type; `O` marks it optional. */
export interface FieldSpec<T = unknown, O extends boolean = boolean> {
  readonly kind: string;
  /** Human description for the protocol reference. */
  readonly doc: string;
  readonly optional: O;
  /**
   * The bounds `check` enforces, as data (what the OpenAPI schemas are built from): a value's
   * range (`uint`), a length in UTF-8 bytes (`text`), characters (`id`, `hex`, `chars`) or
   * decoded bytes (`base64`), an array's most items (`strings`, `list`).
   */
  readonly bounds?: { readonly min: number; readonly max: number };
  /** The allowed values (`enum`). */
  readonly values?: readonly string[];
  /** The fields of each item (`list`). */
  readonly fields?: Readonly<Record<string, FieldSpec>>;
  /** null when `v` is acceptable, otherwise why not. */
  check(v: unknown): string | null;
  /**
   * The form the state reads of a value `check` accepted (addresses lower-cased), the value
   * itself when it is that form already; absent when every accepted value is.
   */
  readonly stateForm?: (v: unknown) => unknown;
  /** Phantom for type inference only. */
  readonly _t?: T;
}

/** A set of fields by name, in canonical order. */
// biome-ignore lint/suspicious/noExplicitAny: field specs of any value type (FieldSpec is invariant in T)
export type AnyFields = Record<string, FieldSpec<any, boolean>>;
type ReqKeys<F extends AnyFields> = { [K in keyof F]: F[K]['optional'] extends true ? never : K }[keyof F];
type OptKeys<F extends AnyFields> = { [K in keyof F]: F[K]['optional'] extends true ? K : never }[keyof F];
type FieldType<S> = S extends FieldSpec<infer T, boolean> ? T : never;
/** The object type a field set describes. */
export type InferFields<F extends AnyFields> = { -readonly [K in ReqKeys<F>]: FieldType<F[K]> } & {
  -readonly [K in OptKeys<F>]?: FieldType<F[K]>;
};

/**
 * The state form of an object `checkObject` accepted against `fields`: each field that has one
 * in its state form (addresses lower-cased), other keys as they are; the object itself when it
 * is that form already (no copy).
 */
export function stateFormOf<T extends Record<string, unknown>>(obj: T, fields: AnyFields): T {
  let out: Record<string, unknown> | undefined;
  for (const [name, s] of entriesOf(fields)) {
    const v = obj[name];
    if (!s.stateForm || v === undefined) continue;
    const w = s.stateForm(v);
    if (w === v) continue;
    out ??= { ...obj };
    out[name] = w;
  }
  return (out ?? obj) as T;
}

/** Field sets are built once per schema: their entries are listed once, not per checked object. */
const entryLists = new WeakMap<AnyFields, [string, AnyFields[string]][]>();
function entriesOf(fields: AnyFields): [string, AnyFields[string]][] {
  let list = entryLists.get(fields);
  if (!list) {
    list = Object.entries(fields);
    entryLists.set(fields, list);
  }
  return list;
}

/** Checks a plain object against ordered fields; null when valid, otherwise `.field why`. */
export function checkObject(v: unknown, fields: AnyFields, extraAllowed: readonly string[] = []): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
  const obj = v as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!Object.hasOwn(fields, key) && !extraAllowed.includes(key)) return `.${key} is not a known field`;
  }
  for (const [name, s] of entriesOf(fields)) {
    const value = obj[name];
    if (value === undefined) {
      if (!s.optional) return `.${name} is required`;
      continue;
    }
    const why = s.check(value);
    if (why) return `.${name} ${why}`;
  }
  return null;
}
