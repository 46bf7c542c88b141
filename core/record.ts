/**
 * Consensus record kinds. A family declares the kinds it owns in its own file with
 * `defineRecord<Value>()(kind, {prefix, isOpen, doc})`; the registry collects them and the state
 * (core/state.ts) keeps one map per kind without knowing any of them by name.
 */

/** A consensus record kind: its name, its state-root key prefix and, if it can time out, its open predicate. */
export interface RecordDef<K extends string = string, T = unknown> {
  /** The key of its map in `ChainState.records` (e.g. `tasks`). */
  readonly kind: K;
  /** State-root and projection row key prefix: entries are `<prefix>:<id>`. Never change a prefix. */
  readonly prefix: string;
  /** The record's id field and what it is, for the protocol reference: `taskId`, `task`. */
  readonly id: string;
  readonly doc: string;
  /**
   * True while a record can still change without a transaction (e.g. time out). Records it holds
   * for are indexed in `ChainState.open[kind]`, so begin-block hooks visit only those.
   */
  isOpen?(value: T): boolean;
  /**
   * Most finished records of this kind a bounded record cache keeps in memory (default: the
   * state's cap). Bulky kinds read rarely set 0: pending upload chunks live on disk only.
   */
  readonly cacheCap?: number;
  /** Phantom for type inference only. */
  readonly _t?: T;
}

/** What a record kind declares besides its name. */
export interface RecordOptions<T> {
  prefix: string;
  id: string;
  doc: string;
  isOpen?: (value: T) => boolean;
  cacheCap?: number;
}

/**
 * Declares a record kind holding values of type `T` (curried so `T` is given and the kind's
 * name is inferred): `export const TASKS = defineRecord<Task>()('tasks', {prefix: 't', id: 'taskId', doc: 'task', isOpen})`.
 */
export function defineRecord<T>() {
  // A kind declared with `isOpen` has it in its type: readers call it without `!`.
  function define<const K extends string>(
    kind: K,
    opts: RecordOptions<T> & { isOpen: (value: T) => boolean },
  ): RecordDef<K, T> & { isOpen(value: T): boolean };
  function define<const K extends string>(kind: K, opts: RecordOptions<T>): RecordDef<K, T>;
  function define<const K extends string>(kind: K, opts: RecordOptions<T>): RecordDef<K, T> {
    return { kind, ...opts };
  }
  return define;
}

/** The value type of a record kind. */
export type RecordValue<D> = D extends RecordDef<string, infer T> ? T : never;
