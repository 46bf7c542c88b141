// The explorer's cache of API reads, shared by every tab of the browser (it lives in the shared
// worker, liveWorker.ts; a browser without one keeps it in the tab): the anonymous quota is 60
// requests a minute per address, and a visitor clicking through pages must not spend it on the
// same reads again. Identical reads in flight are made once; answers are kept for a time by
// kind (a block or a confirmed transaction for minutes, analytics for half a minute, lists
// until the next block or for 8 s); the head comes from the live stream when it is known,
// at no request. A refused read (429) is answered as is, with its Retry-After.

/** A GET's answer as the cache keeps and hands it out: status, body text, Retry-After. */
export interface Answer {
  status: number;
  body: string;
  retryAfter: string | null;
}

/** The head as GET /api/chain/height answers it, kept from the live stream. */
interface Head {
  height: number;
  latestBlock: { index: number; hash: string; timestamp: number };
}

/** What the cache reads its answers with (a `fetch`, or a test's). */
export type Fetcher = (url: string) => Promise<Pick<Response, 'status' | 'text'> & { headers: Pick<Headers, 'get'> }>;

/** How long lists and other reads are kept (until the next block at most). */
const LIST_MS = 8_000;
/** How long answers are kept, by path (first match). */
const KEEP_MS: readonly [RegExp, number][] = [
  [/^\/api\/chain\/block\/(hash\/)?[0-9a-f]+$/, 5 * 60_000],
  [/^\/api\/chain\/tx\/[0-9a-f]{64}$/, 60_000],
  [/^\/api\/(analytics|stats)\//, 30_000],
  [/^\/api\/chain\/fee-estimate$/, 30_000],
  [/^\/api\/chain\/search\//, 30_000],
  [/^\/api\//, LIST_MS],
];
/** Most answers kept. */
const MAX_ENTRIES = 300;
/** Largest answer kept (bytes of JSON). */
const MAX_BODY = 512 * 1024;

/** How long an answer to GET `path` is kept (0: not kept). */
export const keepFor = (path: string): number => KEEP_MS.find(([re]) => re.test(path))?.[1] ?? 0;

const fetchJson: Fetcher = (url) => fetch(url, { headers: { Accept: 'application/json' } });

/** A cache of GET answers (`{status, body, retryAfter}`) over `fetchFn`; `now` is its clock. */
export class ApiCache {
  private readonly entries = new Map<string, { at: number; keep: number; answer: Answer }>();
  private readonly inflight = new Map<string, Promise<Answer>>();
  /** The head from the live stream, or null before the first block event. */
  private head: Head | null = null;
  private readonly fetchFn: Fetcher;
  private readonly now: () => number;

  constructor(fetchFn: Fetcher = fetchJson, now: () => number = Date.now) {
    this.fetchFn = fetchFn;
    this.now = now;
  }

  /** The chain's head moved (a block event): the head is answered from it from now on. */
  onBlock(b: { index: number; hash: string; timestamp: number }): void {
    if (this.head && b.index <= this.head.height && b.index !== this.head.height) return;
    this.head = { height: b.index, latestBlock: { index: b.index, hash: b.hash, timestamp: b.timestamp } };
    // Lists and pending transactions change with a block: only what a block does not change stays.
    for (const [url, e] of this.entries)
      if (e.keep <= LIST_MS || (/\/api\/chain\/tx\//.test(url) && e.answer.body.includes('"pending"'))) this.entries.delete(url);
  }

  /** A reorg: what was read about the dropped blocks may be wrong; read everything again. */
  onReorg(): void {
    this.entries.clear();
    this.head = null;
  }

  /** The answer to GET `url` (an absolute URL of this origin): `{status, body, retryAfter}`. */
  async get(url: string): Promise<Answer> {
    const u = new URL(url);
    if (u.pathname === '/api/chain/height' && this.head) return { status: 200, body: JSON.stringify(this.head), retryAfter: null };
    const hit = this.entries.get(url);
    if (hit && this.now() - hit.at < hit.keep) return hit.answer;
    let pending = this.inflight.get(url);
    if (!pending) {
      pending = this.load(url, u.pathname).finally(() => this.inflight.delete(url));
      this.inflight.set(url, pending);
    }
    return pending;
  }

  private async load(url: string, path: string): Promise<Answer> {
    const res = await this.fetchFn(url);
    const answer = { status: res.status, body: await res.text(), retryAfter: res.headers.get('Retry-After') };
    const keep = keepFor(path);
    // Only what is worth keeping: a pending transaction changes at the next block.
    if (res.status === 200 && keep > 0 && answer.body.length <= MAX_BODY) {
      const oldest = this.entries.keys().next();
      if (this.entries.size >= MAX_ENTRIES && !oldest.done) this.entries.delete(oldest.value);
      this.entries.set(url, { at: this.now(), keep, answer });
    }
    return answer;
  }
}

/** A `fetch` for the client that answers GETs through `get(url)` (the cache, here or in the worker). */
export function cachedFetch(get: (url: string) => Promise<Answer>): typeof fetch {
  return async (input, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' || init.body) return fetch(input, init);
    const url = input instanceof Request ? input.url : String(input);
    const a = await get(url);
    // As the browser would for a read of its own (made by the worker here, out of the tab's sight).
    if (a.status >= 400) console.error(`Failed to load resource: the server responded with a status of ${a.status} (${url})`);
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (a.retryAfter !== null) headers['Retry-After'] = a.retryAfter;
    return new Response(a.body, { status: a.status, headers });
  };
}
