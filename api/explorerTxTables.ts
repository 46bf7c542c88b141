/**
 * What the explorer (api/explorer/) reads off core's transaction registry (core/tx/registry.ts),
 * so that a new type or field needs no table kept by hand there: the types, each type's fields
 * with their kind (core/schema.ts: address, amount, uint, text, hex, id, ...) and the addresses
 * each type names besides its sender. The server evaluates this module and serves the values it
 * exports as /explorer/txTables.ts (api/resources/operator/explorerRoutes.ts), where the
 * explorer's imports of it are pointed: the browser gets the tables without loading the registry.
 */
import { TX_HANDLERS } from '../core/tx/registry.ts';

/** Every transaction type, in the registry's order. */
export const TX_TYPES: readonly string[] = [...TX_HANDLERS.keys()];

/** Per type, its fields in canonical order with their kind (`amount`, `address`, `uint`, ...). */
export const FIELD_KINDS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.fromEntries(
  [...TX_HANDLERS].map(([type, h]) => [type, Object.fromEntries(Object.entries(h.schema.fields).map(([name, spec]) => [name, spec.kind]))]),
);

/**
 * Per type, the address fields it names besides `from`, in canonical order (TRANSFER's `to`, a
 * funded like's `author`, a DM's `recipient`, a mint's `owner`): whom it sends value or a message
 * to, as address histories index it (core's `partiesOf`).
 */
export const RECIPIENT_FIELDS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(FIELD_KINDS).map(([type, kinds]) => [
    type,
    Object.entries(kinds).flatMap(([name, kind]) => (name !== 'from' && kind === 'address' ? [name] : [])),
  ]),
);
