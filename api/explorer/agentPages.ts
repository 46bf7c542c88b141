// The AI economy: tasks (list by status and one task's pipeline), agent runs (list by status,
// submitter or miner; one run with its steps), and conversations with their chat turns.
import { OmbraApiError, type OmbraClient, type RunRecord, type TaskSummary } from '../../client/browser.ts';
import { type Child, el } from './dom.ts';
import { fieldView } from './fields.ts';
import { addr, ageCell, amount, badge, dataTable, duration, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { liveList, txsOfType } from './liveList.ts';
import { pagedTable, splitArg } from './paging.ts';

const HASH = /^[0-9a-fA-F]{64}$/;
const ADDRESS = /^ox[0-9a-fA-F]{40}$/;
const TASK_ID = /^[A-Za-z0-9_-]{8,64}$/;
const TASK_STATUSES: readonly TaskSummary['status'][] = ['submitted', 'responses_collected', 'validated', 'rewarded', 'timeout'];
const RUN_STATUSES: readonly RunRecord['status'][] = [
  'pending',
  'claimed',
  'running',
  'completed',
  'failed',
  'timeout',
  'insufficient_funds',
  'cancelled',
];
const block = (i: number) => el('a', { href: `#/block/${i}` }, `#${i}`);
/** The page of a task's NFT by the task's type (art NFTs have their own: `nft`). */
const tokenPage = (taskType: string) => (taskType === 'image' || taskType === 'audio' ? taskType : 'nft');
/** `v` when it is one of `values`. */
const oneOf = <T extends string>(values: readonly T[], v: string | null): T | undefined => values.find((x) => x === v);

/** Links that filter a list by status; the current one marked. */
const filters = (base: string, statuses: readonly string[], current: string | undefined, all = true) =>
  el(
    'nav',
    { class: 'tabs', 'aria-label': 'Filter by status' },
    ...(all ? [undefined, ...statuses] : statuses).map((s) =>
      el('a', { href: s ? `#/${base}/?status=${s}` : `#/${base}`, 'aria-current': s === current ? 'page' : undefined }, s ?? 'all'),
    ),
  );

/** Agent runs need fork 6: before it, a page says so. */
export async function orNotActive<T>(render: () => Promise<T>): Promise<T | HTMLElement> {
  try {
    return await render();
  } catch (e) {
    if (e instanceof OmbraApiError && e.status === 403)
      return el('p', { class: 'muted' }, 'Agent runs and chat are not active on this chain yet.');
    throw e;
  }
}

export async function tasksPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  const status = oneOf(TASK_STATUSES, query.get('status'));
  const page = pageOf(
    'Tasks',
    filters('tasks', TASK_STATUSES, status),
    el('p', {}, el('a', { href: `/api/csv/tasks${status ? `?status=${status}` : ''}`, download: '' }, 'Download the task list as CSV')),
    section(
      status ? `Tasks ${status}` : 'All tasks, newest first',
      await pagedTable({
        caption: 'Tasks, newest first',
        base: 'tasks',
        query,
        load: async (p) => {
          const r = await client.tasks({ ...p, status });
          return { items: r.tasks, total: r.total };
        },
        head: ['task', 'type', 'status', 'submitter', 'responses', 'fee', 'submitted'],
        row: (t) => [
          idLink(`task/${t.taskId}`, t.taskId, 8),
          badge(t.taskType),
          badge(t.status),
          addr(t.submitter),
          String(t.responseCount),
          amount(t.fee),
          ageCell(t.submittedAt),
        ],
        empty: 'No tasks.',
      }),
    ),
  );
  // New tasks are open: they change the first page of every list but a filter on other statuses.
  return !status || status === 'submitted' ? liveList(page, arg, txsOfType('TASK_SUBMIT'), 'task') : page;
}

export async function taskPage(client: OmbraClient, arg: string) {
  const [id] = splitArg(arg);
  if (!TASK_ID.test(id)) return null;
  const t = await client.task(id);
  if (!t) return null;
  return pageOf(
    ['Task ', el('span', { class: 'mono id' }, t.taskId)],
    section(
      'Task',
      fields('Task', [
        ['Status', badge(t.status)],
        ['Type', badge(t.taskType)],
        ['Submitter', fullId(t.submitter, `address/${t.submitter}`, 'submitter address')],
        ['Fee (escrowed)', amount(t.fee)],
        ['Timeout', duration(t.timeoutMs)],
        ['Submitted', utc(t.submittedAt)],
        ['Deadline', utc(t.submit.deadline)],
        ['Submission', idLink(`tx/${t.submit.txHash}`, t.submit.txHash)],
        ['Validation', t.validation ? idLink(`tx/${t.validation.txHash}`, t.validation.txHash) : null],
        ['Best miner', t.bestMinerId ? fullId(t.bestMinerId, `miner/${t.bestMinerId}`, 'miner id') : null],
        ['Reward', t.reward ? idLink(`tx/${t.reward.txHash}`, t.reward.txHash) : null],
        ['Rewards', t.reward ? fieldView('rewards', t.reward.rewards) : null],
        ['Timed out', t.timeout ? [utc(t.timeout.at), ' refunded ', amount(t.timeout.refunded)] : null],
        ['NFT', t.nft ? idLink(`${tokenPage(t.taskType)}/${t.nft}`, t.nft) : null],
        ['Prompt', el('pre', { tabindex: '0' }, t.prompt)],
      ]),
    ),
    section(
      `Responses (${t.responses.length})`,
      dataTable(
        'Responses',
        ['transaction', 'miner', 'model', 'tokens in / out', 'duration', 'content'],
        t.responses.map((r) => [
          idLink(`tx/${r.txHash}`, r.txHash, 8),
          fullId(r.minerId, `miner/${r.minerId}`, 'miner id'),
          r.model ?? none(),
          `${r.tokensIn ?? '—'} / ${r.tokensOut ?? '—'}`,
          r.durationMs === null ? none() : duration(r.durationMs),
          el('pre', { tabindex: '0' }, r.content.slice(0, 2000)),
        ]),
        'No responses yet.',
      ),
    ),
  );
}

const RUN_HEAD = ['run', 'status', 'submitter', 'miner', 'steps', 'max fee', 'submitted'];
const runRow = (r: RunRecord): Child[] => [
  idLink(`run/${r.agentRunId}`, r.agentRunId, 8),
  badge(r.status),
  addr(r.submitter),
  addr(r.minerAddress),
  `${r.stepCount}/${r.maxSteps}`,
  amount(r.maxFee),
  ageCell(r.submittedAt),
];

export async function runsPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  const address = (name: string) => {
    const a = query.get(name) ?? '';
    return ADDRESS.test(a) ? a.toLowerCase() : null;
  };
  const submitter = address('submitter');
  const miner = address('miner');
  const status = oneOf(RUN_STATUSES, query.get('status')) ?? 'completed';
  type Load = (p: { limit: number; offset: number }) => Promise<{ runs: RunRecord[] }>;
  const [title, load]: [string, Load] = submitter
    ? [`Agent runs submitted by ${submitter}`, (p) => client.read('getApiAgentV6BySubmitterAddress', { address: submitter }, p)]
    : miner
      ? [`Agent runs served by ${miner}`, (p) => client.read('getApiAgentV6ByMinerAddress', { address: miner }, p)]
      : [`Agent runs ${status}`, (p) => client.runsByStatus(status, p)];
  const body = await orNotActive(() =>
    pagedTable({
      caption: title,
      base: 'runs',
      query,
      load: async (p) => {
        const r = await load(p);
        return { items: r.runs, total: null }; // `count` is the page's length
      },
      head: RUN_HEAD,
      row: runRow,
      empty: 'No agent runs.',
    }),
  );
  return pageOf('Agent runs', submitter || miner ? null : filters('runs', RUN_STATUSES, status, false), section(title, body));
}

export async function runPage(client: OmbraClient, arg: string) {
  const [id, query] = splitArg(arg);
  if (!HASH.test(id)) return null;
  const r = await orNotActive(() => client.run(id.toLowerCase()));
  if (!r || r instanceof Node) return r;
  const steps = await pagedTable({
    caption: 'Steps of the run',
    base: `run/${r.agentRunId}`,
    query,
    // The node answers every step at once (a run has at most maxSteps): the page is cut here.
    load: async ({ limit, offset }) => {
      const s = await client.read('getApiAgentV6RunAgentRunIdSteps', { agentRunId: r.agentRunId });
      return { items: s.steps.slice(offset, offset + limit), total: s.steps.length };
    },
    head: ['step', 'output tokens', 'tool calls', 'output hash', 'block', 'age'],
    row: (s) => [
      String(s.stepIndex),
      `${s.outputTokens.toLocaleString('en-US')} tokens`,
      s.toolCalls.length ? s.toolCalls.map((c) => `${c.name} (${c.ok ? 'ok' : 'failed'}, ${duration(c.durationMs)})`).join(', ') : none(),
      el('span', { class: 'mono' }, `${s.outputHash.slice(0, 16)}…`),
      block(s.blockIndex),
      ageCell(s.timestamp),
    ],
    empty: 'No steps yet.',
  });
  return pageOf(
    ['Agent run ', el('span', { class: 'mono id' }, r.agentRunId)],
    section(
      'Run',
      fields('Agent run', [
        ['Status', badge(r.status)],
        ['Submitter', fullId(r.submitter, `address/${r.submitter}`, 'submitter address')],
        ['Conversation', fullId(r.conversationId, `conversation/${r.conversationId}`, 'conversation id')],
        ['Miner', r.minerAddress ? fullId(r.minerAddress, `address/${r.minerAddress}`, 'miner address') : null],
        ['Model', r.modelInfo],
        ['Hardware tier', r.hardwareTier],
        ['Tools allowed', fieldView('toolsWhitelist', r.toolsWhitelist)],
        ['Steps', `${r.stepCount} of at most ${r.maxSteps}`],
        ['Output tokens', `${r.totalTokensOut.toLocaleString('en-US')} tokens`],
        ['Max fee (escrowed)', amount(r.maxFee)],
        ['Miner reward', amount(r.minerReward)],
        ['Network fee', amount(r.networkFee)],
        ['Refund', amount(r.userRefund)],
        ['Submitted', utc(r.submittedAt)],
        ['Claimed', r.claimedAt === null ? null : utc(r.claimedAt)],
        ['Finished', r.finishedAt === null ? null : utc(r.finishedAt)],
        ['Block', block(r.blockIndex)],
        ['Prompt', el('pre', { tabindex: '0' }, r.prompt)],
        ['Final answer', r.finalAnswerInline ? el('pre', { tabindex: '0' }, r.finalAnswerInline) : null],
      ]),
    ),
    section('Steps', steps),
  );
}
