/**
 * The simulator's wallet client: dev keys, local nonce tracking (resynced from the node on a
 * nonce error), signing, submission and confirmation lookups over the node's HTTP API.
 */
import type { KeyPair } from '../core/keys.ts';
import { agentRunIdOf } from '../core/tx/agent.ts';
import { signTx } from '../core/txCodec.ts';

/** A node refusal. */
export class Refused extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Counts of what the simulator did. */
export interface SimCounts {
  sent: Record<string, number>;
  refused: Record<string, number>;
}

/** HTTP client with per-key nonces. */
export class SimClient {
  readonly url: string;
  readonly keys: KeyPair[];
  private readonly nonces = new Map<string, number>();
  readonly counts: SimCounts = { sent: {}, refused: {} };

  constructor(url: string, keys: KeyPair[]) {
    this.url = url.replace(/\/+$/, '');
    this.keys = keys;
  }

  /** GET a JSON resource; undefined on 404. */
  async get<T>(path: string): Promise<T | undefined> {
    const res = await fetch(`${this.url}${path}`);
    if (res.status === 404) return undefined;
    const body = (await res.json()) as T & { code?: string; error?: string };
    if (!res.ok) throw new Refused(body.code ?? `HTTP_${res.status}`, body.error ?? '');
    return body;
  }

  private async nextNonce(address: string): Promise<number> {
    const known = this.nonces.get(address);
    if (known !== undefined) return known;
    const acc = await this.get<{ nextNonce: number }>(`/api/chain/account/${address}`);
    return acc!.nextNonce;
  }

  /** Signs `fields` (without from/nonce/timestamp) with key `i` and submits; returns the signed tx. */
  async send(i: number, fields: Record<string, unknown> & { type: string }): Promise<Record<string, unknown> & { hash: string }> {
    const key = this.keys[i];
    for (let attempt = 0; ; attempt++) {
      const nonce = await this.nextNonce(key.address);
      // An agent run id depends on the nonce the request finally carries.
      const body =
        fields.type === 'AGENT_REQUEST' ? { ...fields, agentRunId: agentRunIdOf(key.address, nonce, fields.prompt as string) } : fields;
      const tx = signTx({ ...body, from: key.address, nonce, timestamp: Date.now() }, key) as Record<string, unknown> & { hash: string };
      const res = await fetch(`${this.url}/api/chain/tx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(tx),
      });
      const answer = (await res.json()) as { ok?: boolean; code?: string; error?: string };
      if (res.ok && answer.ok) {
        this.nonces.set(key.address, nonce + 1);
        this.counts.sent[fields.type] = (this.counts.sent[fields.type] ?? 0) + 1;
        return tx;
      }
      const code = answer.code ?? `HTTP_${res.status}`;
      this.nonces.delete(key.address);
      // Someone else moved this account's nonce (or a pending tx was dropped): resync once.
      if (attempt === 0 && (code === 'STALE_NONCE' || code === 'NONCE_GAP' || code === 'DUPLICATE_TX')) continue;
      this.counts.refused[`${fields.type} ${code}`] = (this.counts.refused[`${fields.type} ${code}`] ?? 0) + 1;
      throw new Refused(code, answer.error ?? '');
    }
  }

  /** 'confirmed', 'pending' or 'unknown' for a transaction hash. */
  async status(hash: string): Promise<'confirmed' | 'pending' | 'unknown'> {
    const t = await this.get<{ status: 'confirmed' | 'pending' }>(`/api/chain/tx/${hash}`);
    return t?.status ?? 'unknown';
  }
}
