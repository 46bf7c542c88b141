/**
 * The simulator's wallet client: one `Wallet` of the client (ombra-node/client) per dev key,
 * which tracks nonces (resynced from the node after a nonce refusal), signs every type from
 * core's schemas and submits; plus JSON reads and confirmation lookups.
 */
import { OmbraApiError, OmbraClient, Wallet } from '../client/index.ts';
import { ChainError } from '../core/errors.ts';
import type { KeyPair } from '../core/keys.ts';

/** A node refusal (the client's `{error, code}` error). */
export { OmbraApiError as Refused };

/** Counts of what the simulator did. */
export interface SimCounts {
  sent: Record<string, number>;
  refused: Record<string, number>;
}

/** HTTP client with one wallet per key. */
export class SimClient {
  readonly url: string;
  readonly keys: KeyPair[];
  readonly client: OmbraClient;
  private readonly wallets: Wallet[];
  readonly counts: SimCounts = { sent: {}, refused: {} };

  constructor(url: string, keys: KeyPair[], apiKey?: string) {
    this.url = url.replace(/\/+$/, '');
    this.keys = keys;
    this.client = new OmbraClient({ url: this.url, apiKey });
    this.wallets = keys.map((k) => new Wallet(this.client, k));
  }

  /** GET a JSON resource; undefined on 404. */
  async get<T>(path: string): Promise<T | undefined> {
    return (await this.client.http.find<T>(path)) ?? undefined;
  }

  /** Signs `fields` (without from/nonce/timestamp) with key `i` and submits; returns the signed tx. */
  async send(i: number, fields: Record<string, unknown> & { type: string }): Promise<Record<string, unknown> & { hash: string }> {
    const { type, ...body } = fields;
    try {
      const { tx } = await this.wallets[i].send(type, body);
      this.counts.sent[type] = (this.counts.sent[type] ?? 0) + 1;
      return tx;
    } catch (err) {
      // A body the node would refuse is refused here already, with the same code.
      const e = err instanceof ChainError ? new OmbraApiError(400, err.code, err.message) : err;
      if (e instanceof OmbraApiError) this.counts.refused[`${type} ${e.code}`] = (this.counts.refused[`${type} ${e.code}`] ?? 0) + 1;
      throw e;
    }
  }

  /** 'confirmed', 'pending' or 'unknown' for a transaction hash. */
  async status(hash: string): Promise<'confirmed' | 'pending' | 'unknown'> {
    return (await this.client.tx(hash))?.status ?? 'unknown';
  }
}
