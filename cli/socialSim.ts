/**
 * `ombra simulate`'s social traffic: blob uploads in both forms (self-describing SOCIAL_BLOB
 * chunks sent out of order; SOCIAL_BLOB_INIT, shuffled SOCIAL_BLOB_CHUNKs, SOCIAL_BLOB_FINALIZE).
 * Each step waits for the confirmation of what it depends on, as the rest of the simulator does.
 */
import { sha256Hex } from '../core/hash.ts';
import { chunkContent } from '../core/upload.ts';

/** Sends a transaction from dev key `i`; `then` runs once it is confirmed; null when refused. */
export type SimSend = (
  i: number,
  fields: Record<string, unknown> & { type: string },
  then?: () => Promise<void>,
) => Promise<(Record<string, unknown> & { hash: string }) | null>;

/** Simulated social users: which dev keys upload. */
const UPLOADERS = [7, 8];

/** A deterministic little image-like payload of `n` bytes. */
function payload(n: number, seed: string): Uint8Array {
  const out = Buffer.alloc(n);
  for (let i = 0, at = 0; at < n; i++, at += 32) Buffer.from(sha256Hex(`${seed}:${i}`), 'hex').copy(out, at);
  return new Uint8Array(out);
}

/** The social part of a simulation. */
export class SocialTraffic {
  private readonly send: SimSend;
  private readonly rnd: () => number;
  private uploads = 0;
  /** Blob ids complete (confirmed), for posts, avatars and messages to name. */
  readonly blobs: string[] = [];

  constructor(send: SimSend, rnd: () => number) {
    this.send = send;
    this.rnd = rnd;
  }

  private shuffled<T>(xs: readonly T[]): T[] {
    return xs
      .map((x) => ({ x, k: this.rnd() }))
      .sort((a, b) => a.k - b.k)
      .map((e) => e.x);
  }

  /** One round: sometimes starts an upload. */
  async tick(): Promise<void> {
    if (this.uploads < 2 && this.rnd() < 0.3) await this.upload();
  }

  /** Uploads a small blob in one of the two forms, its chunks out of order. */
  private async upload(): Promise<void> {
    const who = UPLOADERS[Math.floor(this.rnd() * UPLOADERS.length)];
    const bytes = payload(600 + Math.floor(this.rnd() * 1500), `sim-blob-${Math.floor(this.rnd() * 1e9)}`);
    const c = chunkContent(bytes, 512);
    const blobId = sha256Hex(`blob:${c.contentHash}`);
    const header = { blobId, contentType: 'application/octet-stream', totalBytes: c.totalBytes, totalChunks: c.totalChunks };
    const order = this.shuffled(c.chunks.map((_, i) => i));
    this.uploads++;
    let left = order.length;
    const landed = async () => {
      if (--left > 0) return;
      this.uploads--;
      this.blobs.push(blobId);
    };
    if (this.rnd() < 0.5) {
      for (const i of order) {
        const sent = await this.send(
          who,
          { type: 'SOCIAL_BLOB', ...header, chunkIndex: i, contentHash: c.contentHash, chunkDataBase64: c.chunks[i], fee: '1000' },
          landed,
        );
        if (!sent) return void this.uploads--;
      }
      return;
    }
    const finalize = async () => {
      if (--left > 0) return;
      await this.send(who, { type: 'SOCIAL_BLOB_FINALIZE', blobId, fee: '1000' }, async () => {
        this.uploads--;
        this.blobs.push(blobId);
      });
    };
    const init = await this.send(who, { type: 'SOCIAL_BLOB_INIT', ...header, contentHash: c.contentHash, fee: '1000' }, async () => {
      for (const i of order)
        await this.send(who, { type: 'SOCIAL_BLOB_CHUNK', blobId, chunkIndex: i, chunkDataBase64: c.chunks[i], fee: '1000' }, finalize);
    });
    if (!init) this.uploads--;
  }
}
