// The home page: latest blocks and transactions, mempool, tasks and agent runs, all kept up to
// date from the live event stream (blocks and transactions arrive as events; the mempool,
// tasks and runs are re-read after each block, at most twice a second).
import { OmbraApiError } from '/explorer/client/browser.ts';
import { addrLink, ago, blockLink, card, el, link, ombra, short, table, txLink } from '/explorer/dom.js';

const BLOCKS = 12;
const TXS = 15;

/** Home page state and rendering. */
export class Home {
  constructor(client) {
    this.client = client;
    this.blocks = [];
    this.txs = [];
    this.root = null;
    this.refreshTimer = null;
  }

  /** Loads the first view and returns its element. */
  async render() {
    const page = await this.client.blocks({ limit: BLOCKS });
    this.blocks = page.blocks;
    // The latest transactions may be further back than the latest blocks: look back up to 1,000 blocks.
    this.txs = [];
    for (let to = this.blocks[0]?.index ?? 0, windows = 0; to > 0 && this.txs.length < TXS && windows < 10; to -= 100, windows++) {
      const range = await this.client.blocksRange(Math.max(1, to - 99), to);
      for (const b of range.blocks.reverse()) this.txs.push(...b.transactions.map((t) => ({ ...t, blockIndex: b.index })).reverse());
    }
    this.txs = this.txs.slice(0, TXS);
    this.blocksCard = card('Latest blocks', this.blocksTable());
    this.txsCard = card('Latest transactions', this.txsTable());
    this.mempoolCard = card('Mempool', el('p', { class: 'muted' }, 'Loading…'));
    this.tasksCard = card('Tasks', el('p', { class: 'muted' }, 'Loading…'));
    this.runsCard = card('Agent runs', el('p', { class: 'muted' }, 'Loading…'));
    this.root = el('div', { class: 'grid' }, this.blocksCard, this.txsCard, this.mempoolCard, this.tasksCard, this.runsCard);
    await this.refresh();
    return this.root;
  }

  blocksTable() {
    return table(
      ['height', 'hash', 'txs', 'proposer', 'age'],
      this.blocks.map((b) => [
        blockLink(b.index),
        el('a', { href: `#/block/${b.index}`, class: 'mono' }, short(b.hash)),
        b.txCount,
        addrLink(b.proposer),
        ago(b.timestamp),
      ]),
    );
  }

  txsTable() {
    return table(
      ['hash', 'type', 'from', 'block'],
      this.txs.map((t) => [txLink(t.hash), el('span', { class: 'badge' }, t.type), addrLink(t.from), blockLink(t.blockIndex)]),
      'no transactions in the latest blocks',
    );
  }

  /** A new block from the stream. */
  onBlock(b) {
    if (this.blocks.some((x) => x.index === b.index)) return;
    this.blocks = [
      { index: b.index, hash: b.hash, txCount: b.transactions.length, timestamp: b.timestamp, proposer: b.proposer },
      ...this.blocks,
    ].slice(0, BLOCKS);
    this.txs = [...b.transactions.map((t) => ({ ...t, blockIndex: b.index })).reverse(), ...this.txs].slice(0, TXS);
    this.blocksCard.replaceChildren(el('h2', {}, 'Latest blocks'), this.blocksTable());
    this.blocksCard.querySelector('tr:nth-child(2)')?.classList.add('fresh');
    this.txsCard.replaceChildren(el('h2', {}, 'Latest transactions'), this.txsTable());
    this.scheduleRefresh();
  }

  /** Re-reads the mempool, tasks and runs soon (coalescing bursts of events). */
  scheduleRefresh() {
    if (this.refreshTimer) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      if (this.root?.isConnected) this.refresh().catch(() => undefined);
    }, 500);
  }

  async refresh() {
    const [mempool, tasks, runs] = await Promise.all([
      this.client.mempool({ limit: 10 }),
      this.client.tasks({ limit: 8 }),
      this.recentRuns(),
    ]);
    this.mempoolCard.replaceChildren(
      el('h2', {}, `Mempool (${mempool.total} pending)`),
      table(
        ['hash', 'type', 'from', 'amount'],
        mempool.pending.map((t) => [
          txLink(t.hash),
          el('span', { class: 'badge' }, t.type),
          addrLink(t.from),
          t.amount ? ombra(t.amount) : '',
        ]),
        'empty',
      ),
    );
    this.tasksCard.replaceChildren(
      el('h2', {}, `Tasks (${tasks.total})`),
      table(
        ['task', 'type', 'status', 'responses', 'fee'],
        tasks.tasks.map((t) => [
          link(`task/${t.taskId}`, short(t.taskId, 8)),
          t.taskType,
          el('span', { class: 'badge' }, t.status),
          t.responseCount,
          ombra(t.fee),
        ]),
        'no tasks yet',
      ),
    );
    this.runsCard.replaceChildren(el('h2', {}, 'Agent runs'), runs);
  }

  /** Open and recent agent runs, or why there are none. */
  async recentRuns() {
    try {
      const lists = await Promise.all(['pending', 'claimed', 'running', 'completed', 'failed'].map((s) => this.client.runsByStatus(s, 5)));
      const runs = lists
        .flatMap((l) => l.runs)
        .sort((a, b) => b.submittedAt - a.submittedAt)
        .slice(0, 10);
      return table(
        ['run', 'status', 'submitter', 'steps', 'submitted'],
        runs.map((r) => [
          link(`run/${r.agentRunId}`, short(r.agentRunId, 8)),
          el('span', { class: 'badge' }, r.status),
          addrLink(r.submitter),
          `${r.stepCount}/${r.maxSteps}`,
          ago(r.submittedAt),
        ]),
        'no agent runs yet',
      );
    } catch (e) {
      if (e instanceof OmbraApiError && e.code === 'FORK_NOT_ACTIVE') return el('p', { class: 'muted' }, 'Agent runs start with fork 6.');
      throw e;
    }
  }
}
