/**
 * The explorer's page types and a real page of each, for the browser suites: the route names come
 * from the explorer's own route table (so a new page is covered as soon as it is routed), the ids
 * from the node's API (a block, a transaction of every type, a task of every task type, a run of
 * every status, an NFT of each kind, ...). A route with no source below is tried without an
 * argument (a list page), else sampled from the first link to it found on the pages already
 * sampled; a route with none of these fails the suites.
 */
import type { Page } from 'playwright-core';

/** One page of the explorer: `#/route/arg` (the home page: route ''), named for reports and screenshots. */
export interface PageSample {
  route: string;
  arg: string;
  name: string;
}

/** The page's URL under the node's base URL. */
export const sampleUrl = (base: string, s: PageSample): string => `${base}/#/${s.route}${s.arg ? `/${encodeURIComponent(s.arg)}` : ''}`;

// Functions passed to page.evaluate run in the page; the project's type check has no DOM library.
declare const document: any;

type Tx = { type: string; hash: string; from: string; [k: string]: unknown };
type Api = <T>(path: string) => Promise<T>;
/** What a route's samples are made from: the API and every confirmed transaction. */
type Source = (api: Api, txs: Tx[]) => Promise<[name: string, arg: string][]>;

const first = <T>(xs: T[]): T[] => xs.slice(0, 1);
/** One of each distinct key, in order of first appearance. */
const oneEach = <T>(xs: T[], key: (x: T) => string): T[] => {
  const seen = new Set<string>();
  return xs.filter((x) => !seen.has(key(x)) && !!seen.add(key(x)));
};

/** Where each route's samples come from. */
const SOURCES: Record<string, Source> = {
  block: async (_api, txs) => [
    ['block-genesis', '0'],
    ['block-busiest', String(mostTxs(txs))],
  ],
  tx: async (_api, txs) => oneEach(txs, (t) => t.type).map((t) => [`tx-${t.type}`, t.hash]),
  address: async (api, txs) => {
    const miners = await api<{ miners: { address: string }[] }>('/api/miners?limit=1');
    return [['address-sender', busiestSender(txs)], ...first(miners.miners).map((m) => ['address-miner', m.address] as [string, string])];
  },
  task: async (api) => {
    const list = await api<{ tasks: { taskId: string; taskType: string }[] }>('/api/chain/tasks?limit=100');
    return oneEach(list.tasks, (t) => t.taskType).map((t) => [`task-${t.taskType}`, t.taskId]);
  },
  run: async (api) => {
    const out: [string, string][] = [];
    for (const status of ['pending', 'claimed', 'running', 'completed', 'failed', 'cancelled']) {
      const runs = await api<{ runs: { agentRunId: string }[] }>(`/api/agent/v6/by-status/${status}?limit=1`).catch(() => ({ runs: [] }));
      for (const r of first(runs.runs)) out.push([`run-${status}`, r.agentRunId]);
    }
    return out;
  },
  nft: async (api) => first((await api<{ items: { tokenId: string }[] }>('/api/nft?limit=1')).items).map((n) => ['nft', n.tokenId]),
  image: async (api) => first((await api<{ items: { tokenId: string }[] }>('/api/image?limit=1')).items).map((n) => ['image', n.tokenId]),
  audio: async (api) => first((await api<{ items: { tokenId: string }[] }>('/api/audio?limit=1')).items).map((n) => ['audio', n.tokenId]),
  search: async (_api, txs) => [
    ['search-nothing', 'nothing-matches-this'],
    ['search-address-prefix', busiestSender(txs).slice(0, 6)],
  ],
  miner: async (api) => first((await api<{ miners: { id: string }[] }>('/api/miners?limit=1')).miners).map((m) => ['miner', m.id]),
  post: async (api) => first((await api<{ posts: { postId: string }[] }>('/api/social/feed?limit=1')).posts).map((p) => ['post', p.postId]),
  gallery: async () => ['art', 'image', 'audio'].map((k) => [`gallery-${k}`, k]),
  profile: async (_api, txs) => field(txs, 'SOCIAL_PROFILE_SET', 'from', 'profile'),
  posts: async (_api, txs) => field(txs, 'SOCIAL_POST_CREATE', 'from', 'posts'),
  follows: async (_api, txs) => field(txs, 'SOCIAL_FOLLOW_SET', 'from', 'follows'),
  dms: async (_api, txs) => field(txs, 'SOCIAL_DM_SEND', 'from', 'dms'),
  queue: async (_api, txs) => field(txs, 'SOCIAL_LIKE_INTENT', 'author', 'queue'),
  intent: async (_api, txs) => field(txs, 'SOCIAL_LIKE_INTENT', 'hash', 'intent'),
  conversation: async (_api, txs) => field(txs, 'CHAT_TURN', 'conversationId', 'conversation'),
  conversations: async (_api, txs) => field(txs, 'CHAT_TURN', 'from', 'conversations'),
  site: async (_api, txs) => field(txs, 'WEB_SITE_REGISTER', 'siteId', 'site'),
  release: async (_api, txs) => field(txs, 'WEB_RELEASE_PUBLISH', 'releaseId', 'release'),
  file: async (_api, txs) => field(txs, 'WEB_FILE_INIT', 'fileId', 'file'),
  alias: async (_api, txs) => field(txs, 'WEB_ALIAS_SET', 'alias', 'alias'),
};

/** A sample from the first transaction of a type: one of its fields. */
function field(txs: Tx[], type: string, key: string, name: string): [string, string][] {
  const v = txs.find((t) => t.type === type)?.[key];
  return typeof v === 'string' ? [[name, v]] : [];
}

/** The height of the block with the most transactions. */
function mostTxs(txs: Tx[]): number {
  const per = new Map<number, number>();
  for (const t of txs) per.set(t.blockIndex as number, (per.get(t.blockIndex as number) ?? 0) + 1);
  return [...per.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}

/** The address that sent the most transactions. */
function busiestSender(txs: Tx[]): string {
  const per = new Map<string, number>();
  for (const t of txs) per.set(t.from, (per.get(t.from) ?? 0) + 1);
  return [...per.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
}

/** Every confirmed transaction, with its block's height, read through the API's block ranges. */
async function allTxs(api: Api): Promise<Tx[]> {
  const { height } = await api<{ height: number }>('/api/chain/height');
  const out: Tx[] = [];
  for (let from = 1; from <= height; ) {
    const r = await api<{ blocks: { index: number; transactions: Tx[] }[]; next?: number | null }>(
      `/api/chain/blocks?from=${from}&to=${Math.min(height, from + 99)}`,
    );
    for (const b of r.blocks) for (const t of b.transactions) out.push({ ...t, blockIndex: b.index });
    from = r.next ?? (r.blocks.at(-1)?.index ?? height) + 1;
  }
  return out;
}

/** The route names of the explorer's route table, read in the browser from the loaded app. */
async function explorerRoutes(page: Page, base: string): Promise<string[]> {
  await page.goto(`${base}/`);
  return page.evaluate(async () => Object.keys((await import('/explorer/app.ts' as string)).PAGES));
}

/** Whether the page shows something: not the explorer's "Not found", "No such page" or an error. */
const shows = (page: Page): Promise<boolean> =>
  page.evaluate(() => {
    const view = document.getElementById('view');
    return (
      !!view &&
      view.querySelector('h1')?.textContent !== 'Not found' &&
      !/No such page/.test(view.textContent) &&
      !view.querySelector('.error')
    );
  });

/** The links to explorer pages (`#/route/arg`) on the page shown. */
const linksOnPage = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...document.querySelectorAll('#view a[href^="#/"]')].map((a: any) => a.getAttribute('href')));

/**
 * Samples of every route (or of the routes named in `only`): from the API where a source is known,
 * else the route without an argument, else from links on the pages sampled so far (`open` shows a
 * sample in `page`). Routes with no sample are answered in `missing`.
 */
export async function explorerSamples(
  page: Page,
  base: string,
  open: (s: PageSample) => Promise<void>,
  only?: string[],
): Promise<{ routes: string[]; samples: PageSample[]; missing: string[] }> {
  const api: Api = async <T>(path: string) => {
    const res = await fetch(`${base}${path}`);
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    return (await res.json()) as T;
  };
  const routes = (await explorerRoutes(page, base)).filter((r) => !only || only.includes(r));
  const txs = await allTxs(api);
  const samples: PageSample[] = [{ route: '', arg: '', name: 'home' }];
  for (const route of routes)
    for (const [name, arg] of SOURCES[route] ? await SOURCES[route](api, txs) : []) samples.push({ route, arg, name });
  let missing = routes.filter((r) => !samples.some((s) => s.route === r));
  // Routes without a source: first the route without an argument (a list page), if it shows something.
  for (const route of missing) {
    const s = { route, arg: '', name: route };
    await open(s);
    if (await shows(page)) samples.push(s);
  }
  missing = routes.filter((r) => !samples.some((s) => s.route === r));
  // Then follow links from the pages sampled so far, breadth first.
  for (let i = 0; missing.length && i < samples.length; i++) {
    await open(samples[i]);
    for (const href of await linksOnPage(page)) {
      const [route, ...rest] = href.slice(2).split('/');
      if (!missing.includes(route)) continue;
      samples.push({ route, arg: decodeURIComponent(rest.join('/')), name: route });
      missing = missing.filter((r) => r !== route);
    }
  }
  return { routes, samples, missing };
}
