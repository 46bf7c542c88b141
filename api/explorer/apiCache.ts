// The explorer's cache of API reads, shared by every tab of the browser (it lives in the shared
// worker, liveWorker.ts; a browser without one keeps it in the tab): the anonymous quota is 60
// requests a minute per address, and a visitor clicking through pages must not spend it on the
// same reads again. Identical reads in flight are made once; answers are kept for a time by
// kind (a block or a confirmed transaction for minutes, analytics for half a minute, lists
// until the next block or for 8 s); the head comes from the live stream when it is known,
// at no request. A refused read (429) is answered as is, with its Retry-After.

/** How long lists and other reads are kept (until the next block at most). */
const LIST_MS = 8_000;
/** How long answers are kept, by path (first match). */
const KEEP_MS = [
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

const keepFor = (path) => KEEP_MS.find(([re]) => re.test(path))?.[1] ?? 0;

/** A cache of GET answers (`{status, body, retryAfter}`) over `fetchFn`. */
export class ApiCache {
  constructor(fetchFn = (url) => fetch(url, { headers: { Accept: 'application/json' } })) {
    this.fetchFn = fetchFn;
    this.entries = new Map(); // url → {at, keep, answer}
    this.inflight = new Map(); // url → Promise<answer>
    this.head = null; // {height, latestBlock: {index, hash, timestamp}} from the live stream
  }

  /** The chain's head moved (a block event): the head is answered from it from now on. */
  onBlock(b) {
    if (this.head && b.index <= this.head.height && b.index !== this.head.height) return;
    this.head = { height: b.index, latestBlock: { index: b.index, hash: b.hash, timestamp: b.timestamp } };
    // Lists and pending transactions change with a block: only what a block does not change stays.
    for (const [url, e] of this.entries)
      if (e.keep <= LIST_MS || (/\/api\/chain\/tx\//.test(url) && e.answer.body.includes('"pending"'))) this.entries.delete(url);
  }

  /** A reorg: what was read about the dropped blocks may be wrong; read everything again. */
  onReorg() {
    this.entries.clear();
    this.head = null;
  }

  /** The answer to GET `url` (an absolute URL of this origin): `{status, body, retryAfter}`. */
  async get(url) {
    const u = new URL(url);
    if (u.pathname === '/api/chain/height' && this.head) return { status: 200, body: JSON.stringify(this.head), retryAfter: null };
    const hit = this.entries.get(url);
    if (hit && Date.now() - hit.at < hit.keep) return hit.answer;
    let pending = this.inflight.get(url);
    if (!pending) {
      pending = this.load(url, u.pathname).finally(() => this.inflight.delete(url));
      this.inflight.set(url, pending);
    }
    return pending;
  }

  async load(url, path) {
    const res = await this.fetchFn(url);
    const answer = { status: res.status, body: await res.text(), retryAfter: res.headers.get('Retry-After') };
    const keep = keepFor(path);
    // Only what is worth keeping: a pending transaction changes at the next block.
    if (res.status === 200 && keep > 0 && answer.body.length <= MAX_BODY) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value);
      this.entries.set(url, { at: Date.now(), keep, answer });
    }
    return answer;
  }
}

/** A `fetch` for the client that answers GETs through `get(url)` (the cache, here or in the worker). */
export function cachedFetch(get) {
  return async (input, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    if (method !== 'GET' || init.body) return fetch(input, init);
    const a = await get(String(input));
    // As the browser would for a read of its own (made by the worker here, out of the tab's sight).
    if (a.status >= 400) console.error(`Failed to load resource: the server responded with a status of ${a.status} (${input})`);
    const headers = { 'Content-Type': 'application/json' };
    if (a.retryAfter !== null) headers['Retry-After'] = a.retryAfter;
    return new Response(a.body, { status: a.status, headers });
  };
}
