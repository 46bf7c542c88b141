// The home page: totals and charts (homeStats.ts), latest blocks and transactions, mempool,
// tasks and agent runs (homeLists.ts), all kept up to date from the live event stream. Blocks
// arrive as events (with their transactions, which feed the per-block chart and the tables at
// no request, redrawn at most once a second); the mempool and tasks are re-read at most every
// 2 s while events come, totals, analytics and agent runs at most every 10 s, and nothing is
// re-read while the tab is hidden (it catches up when shown again): many open tabs must not
// flood the node.
import type { BlockSummary, OmbraClient } from '../../client/browser.ts';
import type { AnyTx, LiveBlock } from './chainEvents.ts';
import { Chart } from './charts.ts';
import { age, blockLink, card, el, replaceKeepingFocus, table } from './dom.ts';
// Ids as in every list: shortened, the full id in the title, and a copy button of it on phones.
import { addr, idLink } from './format.ts';
import { HomeLists } from './homeLists.ts';
import { HomeStats } from './homeStats.ts';
import { Throttle } from './throttle.ts';

const BLOCKS = 12;
const TXS = 15;
/** Blocks the per-block charts show. */
const WINDOW = 240;
const PAINT_EVERY_MS = 1000;
const REFRESH_EVERY_MS = 2000;
const STATS_EVERY_MS = 10_000;

/** One block as the charts and tables keep it (a block summary, as /api/chain/block-times answers). */
function summary(b: LiveBlock): BlockSummary {
  return { index: b.index, hash: b.hash, txCount: b.transactions.length, timestamp: b.timestamp, proposer: b.proposer };
}

/** Calls `fn` once, when `element` first comes into view. */
function whenShown(element: Element, fn: () => void): void {
  if (typeof IntersectionObserver !== 'function') {
    fn();
    return;
  }
  const seen = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    seen.disconnect();
    fn();
  });
  seen.observe(element);
}

/** A latest transaction as the home page keeps it: with its block. */
type HomeTx = AnyTx & { blockIndex: number };

/** The transactions of a block, newest first, each with its block. */
const txsOf = (b: { index: number; transactions: readonly AnyTx[] }): HomeTx[] =>
  b.transactions.map((t) => ({ ...t, blockIndex: b.index })).reverse();

/** Home page state and rendering. */
export class Home {
  private readonly client: OmbraClient;
  /** Block summaries, oldest first. */
  private window: BlockSummary[] = [];
  private txs: HomeTx[] = [];
  private root: HTMLElement | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly lists: Throttle;
  private readonly paint: Throttle;
  private readonly stats: Throttle;
  private readonly onVisible: () => void;
  private readonly txChart = new Chart('Transactions and block time, latest blocks (live)', [
    { label: 'transactions', bars: true },
    { label: 'block time', unit: 's', scale: 'right' },
  ]);
  private readonly analytics: HomeStats;
  private readonly tables: HomeLists;
  private readonly blocksCard = card('Latest blocks');
  private readonly txsCard = card('Latest transactions');

  constructor(client: OmbraClient) {
    this.client = client;
    this.analytics = new HomeStats(client);
    this.tables = new HomeLists(client);
    const live = () => this.root?.isConnected ?? false;
    this.lists = new Throttle(REFRESH_EVERY_MS, () => (live() ? this.tables.refresh() : Promise.resolve()));
    this.paint = new Throttle(PAINT_EVERY_MS, () => (live() ? this.repaint() : Promise.resolve()));
    this.stats = new Throttle(STATS_EVERY_MS, () =>
      live() ? Promise.all([this.analytics.refresh(), this.tables.runsShown ? this.tables.refreshRuns() : null]) : Promise.resolve(),
    );
    this.onVisible = () => {
      if (!live()) return document.removeEventListener('visibilitychange', this.onVisible);
      this.paint.shown();
      this.lists.shown();
      this.stats.shown();
    };
    document.addEventListener('visibilitychange', this.onVisible);
  }

  /** Loads the first view and returns its element. */
  async render(): Promise<HTMLElement> {
    // The chart's window and the latest blocks from one light read (summaries, not blocks).
    const times = await this.client.read('getApiChainBlockTimes', {}, { count: WINDOW });
    this.window = times.blocks;
    // The latest transactions: full blocks only from the newest ones that hold any (at most 50 back).
    let need = TXS;
    let from: number | null = null;
    for (let i = this.window.length - 1; i >= 0 && need > 0; i--) {
      if (this.window[i].txCount > 0) {
        need -= this.window[i].txCount;
        from = this.window[i].index;
      }
    }
    const to = this.window.at(-1)?.index;
    if (from !== null && to !== undefined) {
      const range = (await this.client.blocksRange(Math.max(from, to - 49), to)).blocks;
      for (const b of [...range].reverse()) this.txs.push(...txsOf(b));
    }
    this.txs = this.txs.slice(0, TXS);

    this.drawWindow();
    this.blocksCard.append(this.blocksTable());
    this.txsCard.append(this.txsTable());
    const charts = el(
      'section',
      { class: 'charts', 'aria-label': 'Charts' },
      ...[this.txChart, ...this.analytics.charts].map((c) => el('div', { class: 'card' }, c.element)),
      el('div', { class: 'card' }, this.analytics.taskTypes),
      el('div', { class: 'card' }, this.analytics.authorities),
    );
    // Lists first, charts below: the charts and agent runs are read only once scrolled to.
    this.root = el(
      'div',
      {},
      el('h1', { class: 'visually-hidden' }, 'Ombra chain overview'),
      el('section', { class: 'card', 'aria-label': 'Totals' }, this.analytics.tiles),
      el('div', { class: 'grid' }, this.blocksCard, this.txsCard, this.tables.mempoolCard, this.tables.tasksCard, this.tables.runsCard),
      charts,
    );
    this.lists.at = this.stats.at = Date.now();
    whenShown(charts, () => {
      this.analytics.chartsWanted = true;
      void this.analytics.refresh().catch(() => undefined);
    });
    whenShown(this.tables.runsCard, () => {
      this.tables.runsShown = true;
      void this.tables.refreshRuns().catch(() => undefined);
    });
    await Promise.all([this.tables.refresh(), this.analytics.refresh()]);
    return this.root;
  }

  /** The per-block charts over the block window. */
  private drawWindow(): void {
    const w = this.window;
    const gaps = w.map((b, i) => (i ? (b.timestamp - w[i - 1].timestamp) / 1000 : null));
    this.txChart.setData([w.map((b) => b.index), w.map((b) => b.txCount), gaps]);
  }

  private blocksTable(): HTMLElement {
    return table(
      ['height', 'hash', 'txs', 'proposer', 'age'],
      this.window
        .slice(-BLOCKS)
        .reverse()
        .map((b) => [blockLink(b.index), idLink(`block/${b.index}`, b.hash), b.txCount, addr(b.proposer), age(b.timestamp)]),
    );
  }

  private txsTable(): HTMLElement {
    return table(
      ['hash', 'type', 'from', 'block'],
      this.txs.map((t) => [
        idLink(`tx/${String(t.hash)}`, t.hash),
        el('span', { class: 'badge' }, t.type),
        addr(t.from),
        blockLink(t.blockIndex),
      ]),
      'no transactions in the latest blocks',
    );
  }

  /** A new block from the stream (in order; a gap since the last one is read from the node first). */
  onBlock(b: LiveBlock): void {
    this.queue = this.queue.then(() => this.take(b)).catch(() => undefined);
  }

  private async take(b: LiveBlock): Promise<void> {
    const top = this.window.at(-1)?.index ?? -1;
    if (b.index <= top) return;
    // A gap since the last block (the tab was asleep, the stream dropped): its summaries only.
    if (b.index > top + 1 && top >= 0) {
      const gap = await this.client.read('getApiChainBlockTimes', {}, { count: Math.min(WINDOW, b.index - top) });
      this.window.push(...gap.blocks.filter((x) => x.index > top && x.index < b.index));
    }
    this.window.push(summary(b));
    this.txs.unshift(...txsOf(b));
    this.window = this.window.slice(-WINDOW);
    this.txs = this.txs.slice(0, TXS);
    this.paint.schedule();
    this.scheduleRefresh();
    this.stats.schedule();
  }

  /** Redraws the charts and the latest blocks and transactions (at most once a second). */
  private async repaint(): Promise<void> {
    this.drawWindow();
    replaceKeepingFocus(this.blocksCard, el('h2', {}, 'Latest blocks'), this.blocksTable());
    this.blocksCard.querySelector('tbody tr')?.classList.add('fresh');
    replaceKeepingFocus(this.txsCard, el('h2', {}, 'Latest transactions'), this.txsTable());
  }

  /** A reorg: blocks from `fromHeight` on are gone (the stream re-sends the new branch). */
  onReorg(fromHeight: number): void {
    this.queue = this.queue.then(() => {
      this.window = this.window.filter((b) => b.index < fromHeight);
      this.txs = this.txs.filter((t) => t.blockIndex < fromHeight);
      this.scheduleRefresh();
    });
  }

  /** Re-reads the mempool and tasks soon (coalescing bursts of events). */
  scheduleRefresh(): void {
    this.lists.schedule();
  }
}
