/**
 * Signing every transaction type from core's schemas: the client builds the unsigned body,
 * core's `signTx` puts it in canonical order (the schema's fields, then publicKey), hashes and
 * signs it, and core's `checkTxShape` refuses what the node would refuse as INVALID_PARAMS. A
 * new type in core's registry is signable here with no change. Node-only (core hashes with
 * node:crypto).
 */
import type { KeyPair } from '../core/keys.ts';
import { ChainError } from '../core/errors.ts';
import { checkObject } from '../core/fieldSpec.ts';
import type { PayloadOf, TxSchema } from '../core/schema.ts';
import { agentRunIdOf } from '../core/tx/agent/agent.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import { TX_TYPES } from '../core/tx/registry.ts';
import { checkTxShape, schemaOf, signTx } from '../core/txCodec.ts';
import { OmbraApiError } from './http.ts';
import type { OmbraClient } from './reads.ts';
import type { Submitted } from './types.ts';

/** Fields the signer fills in: the sender, its nonce and the time. */
type Filled = 'type' | 'from' | 'nonce' | 'timestamp';

/** The body of a transaction of schema `S`: every field but those the signer fills in. */
export type TxBody<S extends TxSchema> = Omit<PayloadOf<S>, Filled>;

/** Every transaction type core knows (the registry's list). */
export const TRANSACTION_TYPES: readonly string[] = TX_TYPES;

/** Where and when a transaction is signed. */
export interface SignMeta {
  nonce: number;
  /** Epoch ms (default now). */
  timestamp?: number;
}

/**
 * Signs a transaction of `type` (a schema, for typed bodies, or a type name) from `key`.
 * AGENT_REQUEST's `agentRunId` is derived from the nonce when the body leaves it out.
 * Throws ChainError INVALID_PARAMS, naming the field, for a body the node would refuse.
 */
export function buildTx<S extends TxSchema>(
  type: S | string,
  body: TxBody<S> | Record<string, unknown>,
  key: KeyPair,
  meta: SignMeta,
): SignedTx {
  const schema = typeof type === 'string' ? schemaOf(type) : type;
  const fields: Record<string, unknown> = { ...body };
  if (schema.type === 'AGENT_REQUEST' && fields.agentRunId === undefined && typeof fields.prompt === 'string')
    fields.agentRunId = agentRunIdOf(key.address, meta.nonce, fields.prompt);
  const unsigned = { ...fields, type: schema.type, from: key.address, nonce: meta.nonce, timestamp: meta.timestamp ?? Date.now() };
  // Signing keeps only the schema's fields: a misspelt one must be an error, not dropped silently.
  const why = checkObject(unsigned, schema.fields, ['type']);
  if (why) throw new ChainError('INVALID_PARAMS', `${schema.type}${why}`);
  return checkTxShape(signTx(unsigned, key));
}

/** Nonce codes after which a resync and one retry may succeed. */
const RESYNC = new Set(['STALE_NONCE', 'NONCE_GAP', 'DUPLICATE_TX']);

/** A key bound to a node: signs with the next nonce and submits. */
export class Wallet {
  readonly client: OmbraClient;
  readonly key: KeyPair;
  private nonce: number | null = null;

  constructor(client: OmbraClient, key: KeyPair) {
    this.client = client;
    this.key = key;
  }

  get address(): string {
    return this.key.address;
  }

  /** The nonce the next transaction carries: the node's account nonce plus what is pending. */
  async nextNonce(): Promise<number> {
    this.nonce ??= (await this.client.account(this.key.address)).nextNonce;
    return this.nonce;
  }

  /** Signs `body` as a `type` transaction with the next nonce. */
  async sign<S extends TxSchema>(type: S | string, body: TxBody<S> | Record<string, unknown>, timestamp?: number): Promise<SignedTx> {
    return buildTx(type, body, this.key, { nonce: await this.nextNonce(), timestamp });
  }

  /**
   * Signs and submits; after a nonce refusal (someone else moved this account) it resyncs the
   * nonce from the node and tries once more. Answers the signed transaction and the node's answer.
   */
  async send<S extends TxSchema>(
    type: S | string,
    body: TxBody<S> | Record<string, unknown>,
  ): Promise<{ tx: SignedTx; answer: Submitted }> {
    for (let attempt = 0; ; attempt++) {
      const tx = await this.sign(type, body);
      try {
        const answer = await this.client.submit(tx);
        this.nonce = tx.nonce + 1;
        return { tx, answer };
      } catch (e) {
        this.nonce = null;
        if (attempt === 0 && e instanceof OmbraApiError && RESYNC.has(e.code)) continue;
        throw e;
      }
    }
  }
}
