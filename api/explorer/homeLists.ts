// The home page's lists that are re-read from the node rather than kept from the event stream:
// the mempool and the latest tasks (when events come, at most every 2 s) and the open and recent
// agent runs (read once their card is first shown, then with the totals). The home page
// (home.ts) decides when; this reads and draws them.
import { OmbraApiError, type OmbraClient, type RunRecord } from '../../client/browser.ts';
import { age, card, el, replaceKeepingFocus, table } from './dom.ts';
import { addr, idLink } from './format.ts';
import { ombraText } from './text.ts';

/** The mempool, tasks and agent runs cards of the home page. */
export class HomeLists {
  private readonly client: OmbraClient;
  readonly mempoolCard = card('Mempool', el('p', { class: 'muted' }, 'Loading…'));
  readonly tasksCard = card('Tasks', el('p', { class: 'muted' }, 'Loading…'));
  readonly runsCard = card('Agent runs', el('p', { class: 'muted' }, 'Read when shown.'));
  /** Whether the runs card has come into view (runs are read only from then on). */
  runsShown = false;

  constructor(client: OmbraClient) {
    this.client = client;
  }

  /** Re-reads the mempool and the latest tasks. */
  async refresh(): Promise<void> {
    const [mempool, tasks] = await Promise.all([this.client.mempool({ limit: 10 }), this.client.tasks({ limit: 8 })]);
    replaceKeepingFocus(
      this.mempoolCard,
      el('h2', {}, `Mempool (${mempool.total} pending)`),
      table(
        ['hash', 'type', 'from', 'amount'],
        mempool.pending.map((t) => [
          idLink(`tx/${t.hash}`, t.hash),
          el('span', { class: 'badge' }, t.type),
          addr(t.from),
          t.amount ? ombraText(t.amount) : '',
        ]),
        'empty',
      ),
    );
    replaceKeepingFocus(
      this.tasksCard,
      el('h2', {}, `Tasks (${tasks.total})`),
      table(
        ['task', 'type', 'status', 'responses', 'fee'],
        tasks.tasks.map((t) => [
          idLink(`task/${t.taskId}`, t.taskId, 8),
          t.taskType,
          el('span', { class: 'badge' }, t.status),
          t.responseCount,
          ombraText(t.fee),
        ]),
        'no tasks yet',
      ),
    );
  }

  /** Re-reads the agent runs. */
  async refreshRuns(): Promise<void> {
    replaceKeepingFocus(this.runsCard, el('h2', {}, 'Agent runs'), await this.recentRuns());
  }

  /** Open and recent agent runs, or why there are none. */
  private async recentRuns(): Promise<HTMLElement> {
    try {
      const open: RunRecord['status'][] = ['pending', 'claimed', 'running', 'completed', 'failed'];
      const lists = await Promise.all(open.map((s) => this.client.runsByStatus(s, 5)));
      const runs = lists
        .flatMap((l) => l.runs)
        .sort((a, b) => b.submittedAt - a.submittedAt)
        .slice(0, 10);
      return table(
        ['run', 'status', 'submitter', 'steps', 'submitted'],
        runs.map((r) => [
          idLink(`run/${r.agentRunId}`, r.agentRunId, 8),
          el('span', { class: 'badge' }, r.status),
          addr(r.submitter),
          `${r.stepCount}/${r.maxSteps}`,
          age(r.submittedAt),
        ]),
        'no agent runs yet',
      );
    } catch (e) {
      if (e instanceof OmbraApiError && e.code === 'FORK_NOT_ACTIVE') return el('p', { class: 'muted' }, 'Agent runs start with fork 6.');
      throw e;
    }
  }
}
