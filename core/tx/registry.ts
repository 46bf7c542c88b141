/**
 * Every transaction family this chain knows, and what derives from them: handlers by type, the
 * record kinds of the state, begin-block hooks and tokens consumed.
 *
 * Adding a transaction type (every step; ARCHITECTURE.md has the same list):
 *   1. Schema, in its family's file (core/tx/<family>.ts, or core/tx/<family>/ for a family of
 *      several files): `const POST = defineTx({type, family, fork, doc, fields: {from, ..., fee,
 *      nonce, timestamp}, moneyFlow})` (core/schema.ts), exported once another file imports it
 *      (knip refuses unused exports). The key order of `fields` is the canonical hash order;
 *      `moneyFlow` says where its micro-units go (a test requires it).
 *   2. Rules: `const post = txHandler(POST, {cost, check, apply})` (core/tx/handler.ts): every hook
 *      gets the typed payload; `check` reads a StateReader, `apply` writes a TxState
 *      (core/txState.ts). Optional: `cost` (default: the `fee`, no storage), `tokensConsumed(tx)`,
 *      and on the schema `event: {channel, event, fields}` to announce it on a live channel.
 *   3. Registry entry: add the handler to its family's `handlers` (their order is the reference's);
 *      a new family is a `defineFamily({name, handlers, records, beginBlock, chunkStores,
 *      docSections})` (core/tx/family.ts) plus one line in `families` below. Records it owns:
 *      `defineRecord<Post>()('posts', {prefix, id, doc, isOpen?})` (core/record.ts), listed in the
 *      family's `records`, read and written with `s.get(POSTS, id)` / `s.put(POSTS, id, value)`; a
 *      prefix is part of the state root: never reuse or change one. Timeouts: `beginBlock: {doc,
 *      run(s, ctx)}` with `expireDue(s, RECORD, ctx.timestamp, deadline, expire)`.
 *   4. Tests: test/core/ (rules and refusals; test/helpers/txExamples.ts finds a valid example itself).
 *   5. Simulator: simulator/simulator.ts (or simulator/socialSim.ts, simulator/driveSim.ts) sends the type, so the
 *      recorded chain exercises it.
 *   6. Fixtures: `npm run fixtures` re-records fixtures/simulated-chain.ndjson (cli/fixtures.ts);
 *      test/system/cli/simulate.test.ts fails with that command while a sent type is missing from it.
 *   7. Docs: `npm run docs` regenerates docs/protocol.md (a test fails when it drifts); the
 *      OpenAPI transaction schemas and the client's TRANSACTION_TYPES derive from this registry.
 *   8. Readers: a projection folds it with `isTx(tx, POST)` (projections/), a query and a route
 *      serve what it built (queries/, api/resources/).
 */
import { present } from '../errors.ts';
import type { ChunkStore } from '../chunkStore.ts';
import type { RecordDef, RecordValue } from '../record.ts';
import type { TxState } from '../txState.ts';
import type { TxEvent } from '../schema.ts';
import { agentFamily } from './agent/agent.ts';
import { artFamily } from './art.ts';
import { chatFamily } from './chat.ts';
import type { TxFamily } from './family.ts';
import type { SignedTx, TxContext, TxHandler } from './handler.ts';
import { mediaFamily } from './media.ts';
import { minerFamily } from './miner.ts';
import { socialFamily } from './social/social.ts';
import { storageFamily } from './web/drive.ts';
import { taskFamily } from './task/task.ts';
import { transferFamily } from './transfer.ts';

// Order matters: it is the order of the types in the reference (the spec's list, then the live
// network's CHAT_TURN, ART_MINT, IMAGE_MINT and AUDIO_MINT) and the order begin-block hooks run in
// (tasks before runs).
const families = [
  transferFamily,
  taskFamily,
  minerFamily,
  agentFamily,
  socialFamily,
  storageFamily,
  chatFamily,
  artFamily,
  mediaFamily,
] as const;

/** The families, in registry order. */
export const FAMILIES: readonly TxFamily[] = families;

const all: TxHandler[] = FAMILIES.flatMap((f) => f.handlers);

/** Handlers by transaction type, in the spec's order. */
export const TX_HANDLERS: ReadonlyMap<string, TxHandler> = new Map(all.map((h) => [h.schema.type, h]));

/** The handler of a transaction's type, for a transaction whose shape was checked (so its type is known). */
export function handlerOf(tx: { readonly type: string }): TxHandler {
  return present(TX_HANDLERS.get(tx.type), `the handler of ${tx.type}`);
}

/** Every transaction type name: the spec's 22, then CHAT_TURN and ART_MINT. */
export const TX_TYPES: readonly string[] = all.map((h) => h.schema.type);

type Defs = NonNullable<(typeof families)[number]['records']>[number];
/** The record kinds and their value types, as the families declare them. */
export type RecordTypes = { [D in Defs as D['kind']]: RecordValue<D> };
/** A record kind. */
export type RecordKind = keyof RecordTypes;

/** Every record kind, in registry order. */
export const RECORDS: readonly RecordDef<RecordKind>[] = FAMILIES.flatMap((f) => f.records ?? []) as RecordDef<RecordKind>[];
// Prefixes are part of the state root: two kinds sharing one (or accounts' `a`, supply's `s`) would collide.
const taken = new Set(['a', 's']);
for (const r of RECORDS) {
  if (taken.has(r.prefix)) throw new Error(`record kind ${r.kind}: prefix ${r.prefix} is taken`);
  taken.add(r.prefix);
}
/** The record kinds. */
export const RECORD_KINDS: readonly RecordKind[] = RECORDS.map((r) => r.kind);
/** Every record kind with its state-root key prefix. */
export const RECORD_PREFIX = Object.fromEntries(RECORDS.map((r) => [r.kind, r.prefix])) as Record<RecordKind, string>;

/** Every namespace of chunked uploads (social blobs, drive files), in registry order. */
export const CHUNK_STORES: readonly ChunkStore[] = FAMILIES.flatMap((f) => f.chunkStores ?? []);

/** Runs every family's begin-block hook, in registry order (before the block's transactions). */
export function beginBlock(s: TxState, ctx: TxContext): void {
  for (const f of FAMILIES) f.beginBlock?.run(s, ctx);
}

/** Inference tokens a block's transactions report (each type's `tokensConsumed` hook). */
export function tokensConsumedBy(txs: readonly SignedTx[]): bigint {
  let n = 0n;
  for (const tx of txs) n += TX_HANDLERS.get(tx.type)?.tokensConsumed?.(tx) ?? 0n;
  return n;
}

/** The types that announce an event on a live channel, by type (e.g. `agent` for the WebSocket agent channel). */
export function txEvents(channel: string): ReadonlyMap<string, TxEvent> {
  const out = new Map<string, TxEvent>();
  for (const h of all) if (h.schema.event?.channel === channel) out.set(h.schema.type, h.schema.event);
  return out;
}

// Per type, its top-level address fields besides `from` (TRANSFER's `to`, a DM's `recipient`, a
// funded like's `author`, a mint's `owner`, ...), read off the schemas once.
const PARTY_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(
  all.map((h) => [
    h.schema.type,
    Object.entries(h.schema.fields).flatMap(([name, spec]) => (name !== 'from' && spec.kind === 'address' ? [name] : [])),
  ]),
);

/** The top-level address fields of a type besides `from` (none for an unknown type). */
export function partyFieldsOf(type: unknown): readonly string[] {
  return (typeof type === 'string' && PARTY_FIELDS.get(type)) || [];
}

/**
 * The accounts a transaction involves: its sender, then every other address its schema names at
 * top level, each once. What address history and `address_tx` alerts index.
 */
export function partiesOf(tx: SignedTx): string[] {
  const out = [tx.from];
  for (const name of partyFieldsOf(tx.type)) {
    const a = tx[name];
    if (typeof a === 'string' && !out.includes(a)) out.push(a);
  }
  return out;
}
