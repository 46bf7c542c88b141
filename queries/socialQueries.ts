/**
 * Reads of the social chain: posts (consensus record + body row), timelines, likes, funded-like
 * intents and queues, subscriptions, direct messages and profiles. Lists page with limit/offset
 * over rows of the `social` projection (projections/social.ts): the feed, an author's posts and an
 * address's messages are numbered (one range read at any offset); subscriptions and queues, whose
 * rows come and go, are counted as they are read (one account's follows, one author's pending intents).
 */
import { INTENTS, type LikeIntent } from '../core/tx/social/socialLike.ts';
import { POSTS, type PostRef } from '../core/tx/social/socialPost.ts';
import { readRecord, readRecords } from './stateReads.ts';
import type { ReadPorts } from '../node/ports.ts';
import { dmCountKey, postCountKey, socialProjection, type DmRecord, type LikeRecord } from '../projections/social.ts';
import { numberedPage } from './numberedPage.ts';

/** A post as served. */
export type Post = Omit<PostRef, 'parentPostId'> & { body: string; blobIds: string[]; parentPostId?: string };
/** A like intent as served (its place in the expiry order left out). */
export type IntentRecord = Omit<LikeIntent, 'seq'>;
/** A profile as served. */
export interface Profile {
  address: string;
  displayName: string;
  bio: string;
  avatarBlobId?: string;
}

/** A page of a list: its total and the requested slice. */
export interface Slice<T> {
  count: number;
  items: T[];
}

/** The served form of an intent record. */
function intentRecord(i: LikeIntent): IntentRecord {
  const { seq: _seq, ...rest } = i;
  return rest;
}

/** Social query facade. */
export class SocialQueries {
  private readonly ports: ReadPorts;

  constructor(ports: ReadPorts) {
    this.ports = ports;
  }

  private rows() {
    return this.ports.models.readable(socialProjection);
  }

  /** Values of the rows under `prefix`, newest (last in key order) first or oldest first, with their total. */
  private async page<T>(prefix: string, limit: number, offset: number, newestFirst = true): Promise<Slice<T>> {
    const rows = await this.rows();
    const items: T[] = [];
    let count = 0;
    for await (const v of rows.values({ gte: prefix, lt: `${prefix}\xff`, reverse: newestFirst })) {
      if (count >= offset && items.length < limit) items.push(v as T);
      count++;
    }
    return { count, items };
  }

  /**
   * A numbered list's page, newest first: its size is `size` (the feed's, from memory, taken before
   * the rows are flushed) or the count row `countKey`.
   */
  private async numbered<T>(prefix: string, limit: number, offset: number, count: string | number): Promise<Slice<T>> {
    const rows = await this.rows();
    const size = typeof count === 'number' ? count : (((await rows.get(count)) as number | undefined) ?? 0);
    return { count: size, items: await numberedPage<T>(rows, prefix, size, limit, offset, true) };
  }

  /** One post, or undefined. */
  async post(postId: string): Promise<Post | undefined> {
    const ref = await readRecord(this.ports, POSTS, postId);
    if (!ref) return undefined;
    const row = (await (await this.rows()).get(`post!${postId}`)) as { body: string; blobIds: string[] } | undefined;
    const { parentPostId, ...rest } = ref;
    return { ...rest, body: row?.body ?? '', blobIds: row?.blobIds ?? [], ...(parentPostId ? { parentPostId } : {}) };
  }

  private async posts(ids: readonly string[]): Promise<Post[]> {
    const out: Post[] = [];
    for (const id of ids) {
      const p = await this.post(id);
      if (p) out.push(p);
    }
    return out;
  }

  /** Every post, newest first. */
  async feed(limit: number, offset: number): Promise<Slice<Post>> {
    const page = await this.numbered<string>('feed!', limit, offset, this.ports.models.state(socialProjection).feed);
    return { count: page.count, items: await this.posts(page.items) };
  }

  /** An author's posts, newest first. */
  async byAuthor(author: string, limit: number, offset: number): Promise<Slice<Post>> {
    const page = await this.numbered<string>(`by!${author}!`, limit, offset, postCountKey(author));
    return { count: page.count, items: await this.posts(page.items) };
  }

  /** A post's likes (enabled reactions and paid intents), newest first. */
  async likes(postId: string): Promise<LikeRecord[]> {
    const { items } = await this.page<LikeRecord>(`like!${postId}!`, Number.MAX_SAFE_INTEGER, 0, false);
    return items.sort((a, b) => b.timestamp - a.timestamp || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  }

  /** The accounts `subscriber` follows, in address order. */
  subscriptions(subscriber: string, limit: number, offset: number): Promise<Slice<string>> {
    return this.page<string>(`sub!${subscriber}!`, limit, offset, false);
  }

  /** An author's pending intents, oldest first (queue order). */
  async queue(author: string, limit: number, offset: number): Promise<Slice<IntentRecord>> {
    const page = await this.page<string>(`queue!${author}!`, limit, offset, false);
    const intents = await readRecords(this.ports, INTENTS, page.items);
    return { count: page.count, items: intents.map((i) => intentRecord(i!)) };
  }

  /** One intent, or undefined. */
  async intent(intentId: string): Promise<IntentRecord | undefined> {
    const i = await readRecord(this.ports, INTENTS, intentId);
    return i && intentRecord(i);
  }

  /** Messages `address` sent or received, newest first. */
  dms(address: string, limit: number, offset: number): Promise<Slice<DmRecord>> {
    return this.numbered<DmRecord>(`dm!${address}!`, limit, offset, dmCountKey(address));
  }

  /** A profile, or undefined when the account never set one. */
  async profile(address: string): Promise<Profile | undefined> {
    const row = (await (await this.rows()).get(`profile!${address}`)) as Omit<Profile, 'address'> | undefined;
    return row && { address, ...row };
  }
}
