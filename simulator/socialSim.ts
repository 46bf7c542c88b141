/**
 * `ombra simulate`'s social traffic: blob uploads in both forms (self-describing SOCIAL_BLOB
 * chunks sent out of order; SOCIAL_BLOB_INIT, shuffled SOCIAL_BLOB_CHUNKs, SOCIAL_BLOB_FINALIZE),
 * profiles, posts and replies (some with blobs), reactions, follows, funded likes (some paid at
 * once, some queued and paid by a later follow) and encrypted-looking direct messages.
 * Each step waits for the confirmation of what it depends on, as the rest of the simulator does,
 * and toggles (follows, reactions) wait for their previous toggle, so nothing is refused.
 */
import { sha256Hex } from '../core/hash.ts';
import { chunkContent } from '../core/upload.ts';

/** Sends a transaction from dev key `i`; `then` runs once it is confirmed (given its hash); null when refused. */
export type SimSend = (
  i: number,
  fields: Record<string, unknown> & { type: string },
  then?: (hash: string) => Promise<void>,
) => Promise<(Record<string, unknown> & { hash: string }) | null>;

/** Simulated social users (dev keys); the first two also upload. */
const USERS = [7, 8, 9, 1];
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
  /** Confirmed posts and their authors. */
  private readonly posts: { postId: string; author: number }[] = [];
  /** Toggles as confirmed, and those with a transaction on the way. */
  private readonly on = new Set<string>();
  private readonly busy = new Set<string>();
  private counter = 0;
  private started = 0;
  private profiles = false;
  private readonly addresses: readonly string[];
  private readonly read: (path: string) => Promise<unknown>;

  constructor(
    send: SimSend,
    rnd: () => number,
    addresses: readonly string[],
    read: (path: string) => Promise<unknown> = async () => undefined,
  ) {
    this.send = send;
    this.rnd = rnd;
    this.addresses = addresses;
    this.read = read;
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rnd() * xs.length)];
  }

  private shuffled<T>(xs: readonly T[]): T[] {
    return xs
      .map((x) => ({ x, k: this.rnd() }))
      .sort((a, b) => a.k - b.k)
      .map((e) => e.x);
  }

  /** One round: a few social actions. */
  async tick(): Promise<void> {
    if (!this.profiles) await this.setProfiles();
    if (this.uploads < 2 && this.rnd() < 0.3) await this.upload();
    if (this.rnd() < 0.5) await this.post();
    if (this.posts.length && this.rnd() < 0.4) await this.react();
    if (this.posts.length && this.rnd() < 0.4) await this.like();
    if (this.rnd() < 0.3) await this.follow();
    if (this.rnd() < 0.3) await this.dm();
  }

  private async setProfiles(): Promise<void> {
    this.profiles = true;
    // Follows outlive a run: learn the chain's, so a second run flips them the right way.
    for (const who of USERS) {
      const got = (await this.read(`/api/social/subscriptions/${this.addresses[who]}?limit=100`)) as
        | { subscriptions?: string[] }
        | undefined;
      for (const whom of USERS) if (got?.subscriptions?.includes(this.addresses[whom])) this.on.add(`f:${who}:${whom}`);
    }
    for (const u of USERS)
      await this.send(u, { type: 'SOCIAL_PROFILE_SET', displayName: `sim user ${u}`, bio: `a simulated account (${u})`, fee: '1000' });
  }

  /** A post, sometimes a reply, sometimes with a complete blob. */
  private async post(): Promise<void> {
    const author = this.pick(USERS);
    const postId = `sim-${++this.counter}-${Math.floor(this.rnd() * 1e6)}`;
    const parent = this.posts.length && this.rnd() < 0.3 ? this.pick(this.posts).postId : undefined;
    const blobIds = this.blobs.length && this.rnd() < 0.4 ? [this.pick(this.blobs)] : [];
    const body = `${parent ? 'reply' : 'post'} #${this.counter}: block thoughts ${Math.floor(this.rnd() * 1000)}`;
    await this.send(
      author,
      { type: 'SOCIAL_POST_CREATE', postId, body, blobIds, ...(parent ? { parentPostId: parent } : {}), fee: '1000' },
      async () => {
        this.posts.push({ postId, author });
        if (blobIds.length && this.rnd() < 0.5)
          await this.send(author, {
            type: 'SOCIAL_PROFILE_SET',
            displayName: `sim user ${author}`,
            bio: 'now with an avatar',
            avatarBlobId: blobIds[0],
            fee: '1000',
          });
      },
    );
  }

  /** Flips a toggle (reaction or follow) whose previous flip was confirmed. */
  private async toggle(key: string, who: number, fields: (enabled: boolean) => Record<string, unknown> & { type: string }): Promise<void> {
    if (this.busy.has(key)) return;
    const enabled = !this.on.has(key);
    this.busy.add(key);
    const sent = await this.send(who, fields(enabled), async () => {
      this.busy.delete(key);
      if (enabled) this.on.add(key);
      else this.on.delete(key);
    });
    if (!sent) this.busy.delete(key);
  }

  private async react(): Promise<void> {
    const who = this.pick(USERS);
    const { postId } = this.pick(this.posts);
    await this.toggle(`r:${who}:${postId}`, who, (enabled) => ({
      type: 'SOCIAL_REACTION_SET',
      targetPostId: postId,
      reaction: 'like',
      enabled,
      fee: '1000',
    }));
  }

  private async follow(): Promise<void> {
    const who = this.pick(USERS);
    const whom = this.pick(USERS.filter((u) => u !== who));
    await this.toggle(`f:${who}:${whom}`, who, (enabled) => ({
      type: 'SOCIAL_FOLLOW_SET',
      targetAddress: this.addresses[whom],
      enabled,
      fee: '1000',
    }));
  }

  /** A funded like of someone else's post: paid at once to an author the liker follows, queued otherwise. */
  private async like(): Promise<void> {
    const who = this.pick(USERS);
    const mine = this.posts.filter((p) => p.author !== who);
    if (!mine.length) return;
    const p = this.pick(mine);
    const tokens = 1 + Math.floor(this.rnd() * 5000);
    await this.send(who, { type: 'SOCIAL_LIKE_INTENT', author: this.addresses[p.author], postId: p.postId, tokens, fee: '1000' });
  }

  /** A direct message: random bytes standing for a NaCl box (the node never decrypts). */
  private async dm(): Promise<void> {
    const from = this.pick(USERS);
    const to = this.pick(USERS.filter((u) => u !== from));
    const n = ++this.counter;
    const ciphertext = Buffer.from(payload(48 + Math.floor(this.rnd() * 200), `dm-${n}`)).toString('base64');
    await this.send(from, {
      type: 'SOCIAL_DM_SEND',
      dmId: `dm-${n}-${Math.floor(this.rnd() * 1e6)}`,
      recipient: this.addresses[to],
      ciphertext,
      nonceHex: sha256Hex(`nonce-${n}`).slice(0, 48),
      ephemeralPubKey: sha256Hex(`eph-${n}`),
      contentHash: sha256Hex(`plain-${n}`),
      blobIds: [],
      fee: '1000',
    });
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
    // The two forms take turns, so every run sends both.
    if (this.started++ % 2 === 0) {
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
