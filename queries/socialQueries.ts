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
import type { NumberedRows, RowGroup, RowReader } from '../projections/rows.ts';
import {
  authorPostRows,
  dmCountRow,
  dmRows,
  feedRows,
  followerRows,
  likeRows,
  postCountRow,
  postRow,
  profileRow,
  queueRows,
  replyRows,
  socialProjection,
  subscriptionRows,
  type DmRecord,
  type LikeRecord,
} from '../projections/social.ts';

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

  /** Values of `group`'s rows of `key`, newest (last in key order) first or oldest first, with their total. */
  private async page<G, T>(group: RowGroup<G, never, T>, key: G, limit: number, offset: number, newestFirst = true): Promise<Slice<T>> {
    const rows = await this.rows();
    const items: T[] = [];
    let count = 0;
    for await (const v of group.values(rows, key, { reverse: newestFirst })) {
      if (count >= offset && items.length < limit) items.push(v);
      count++;
    }
    return { count, items };
  }

  /**
   * A page of `key`'s list in `list`, newest first: its size is `count` (the feed's, from memory,
   * taken before the rows are flushed) or what the count row `count` holds for `key`.
   */
  private async numbered<G, T>(
    list: NumberedRows<G, T>,
    key: G,
    limit: number,
    offset: number,
    count: number | ((rows: RowReader) => Promise<number | undefined>),
  ): Promise<Slice<T>> {
    const rows = await this.rows();
    const size = typeof count === 'number' ? count : ((await count(rows)) ?? 0);
    return { count: size, items: await list.page(rows, key, size, limit, offset, true) };
  }

  /** One post, or undefined. */
  async post(postId: string): Promise<Post | undefined> {
    const ref = await readRecord(this.ports, POSTS, postId);
    if (!ref) return undefined;
    const row = await postRow.get(await this.rows(), postId);
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
    const page = await this.numbered(feedRows, undefined, limit, offset, this.ports.models.state(socialProjection).feed);
    return { count: page.count, items: await this.posts(page.items) };
  }

  /** An author's posts, newest first. */
  async byAuthor(author: string, limit: number, offset: number): Promise<Slice<Post>> {
    const page = await this.numbered(authorPostRows, author, limit, offset, (rows) => postCountRow.get(rows, author));
    return { count: page.count, items: await this.posts(page.items) };
  }

  /** A post's likes (enabled reactions and paid intents), newest first: `limit` from `offset` (all by default), with their count. */
  async likes(postId: string, limit = Number.MAX_SAFE_INTEGER, offset = 0): Promise<Slice<LikeRecord>> {
    const { count, items } = await this.page(likeRows, postId, Number.MAX_SAFE_INTEGER, 0, false);
    items.sort((a, b) => b.timestamp - a.timestamp || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
    return { count, items: items.slice(offset, offset + limit) };
  }

  /** A post's replies, oldest first (chain order), with their count. */
  async replies(postId: string, limit: number, offset: number): Promise<Slice<Post>> {
    const page = await this.page(replyRows, postId, limit, offset, false);
    return { count: page.count, items: await this.posts(page.items) };
  }

  /** The accounts that follow `target`, in address order. */
  followers(target: string, limit: number, offset: number): Promise<Slice<string>> {
    return this.page(followerRows, target, limit, offset, false);
  }

  /** The accounts `subscriber` follows, in address order. */
  subscriptions(subscriber: string, limit: number, offset: number): Promise<Slice<string>> {
    return this.page(subscriptionRows, subscriber, limit, offset, false);
  }

  /** An author's pending intents, oldest first (queue order). */
  async queue(author: string, limit: number, offset: number): Promise<Slice<IntentRecord>> {
    const page = await this.page(queueRows, author, limit, offset, false);
    const intents = await readRecords(this.ports, INTENTS, page.items);
    return { count: page.count, items: intents.filter((i) => i !== undefined).map(intentRecord) };
  }

  /** One intent, or undefined. */
  async intent(intentId: string): Promise<IntentRecord | undefined> {
    const i = await readRecord(this.ports, INTENTS, intentId);
    return i && intentRecord(i);
  }

  /** Messages `address` sent or received, newest first. */
  dms(address: string, limit: number, offset: number): Promise<Slice<DmRecord>> {
    return this.numbered(dmRows, address, limit, offset, (rows) => dmCountRow.get(rows, address));
  }

  /** A profile, or undefined when the account never set one. */
  async profile(address: string): Promise<Profile | undefined> {
    const row = await profileRow.get(await this.rows(), address);
    return row && { address, ...row };
  }
}
