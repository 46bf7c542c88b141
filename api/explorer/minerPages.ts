// Miners: the registered miners paged, a leaderboard (miners by tasks completed and reputation;
// authorities by blocks proposed and slots missed) and one miner with the agent runs it served.
import type { OmbraClient } from '../../client/browser.ts';
import { el } from './dom.ts';
import { addr, ageCell, badge, dataTable, fields, fullId, idLink, pageOf, section } from './format.ts';
import { pagedTable, splitArg } from './paging.ts';

const HASH = /^[0-9a-fA-F]{64}$/;
/** Most miners the leaderboard ranks (read 100 a page). */
const LEADERBOARD_MAX = 1000;
const minerLink = (m: { id: string; name: string }) => el('a', { href: `#/miner/${m.id}`, 'aria-label': `Miner ${m.name}` }, m.name);
const tags = (list: readonly string[]) => el('span', { class: 'tags' }, ...list.map(badge));

export async function minersPage(client: OmbraClient, arg: string) {
  const [, query] = splitArg(arg);
  return pageOf(
    'Miners',
    el('p', {}, el('a', { href: '#/leaderboard' }, 'Leaderboard'), ' · ', el('a', { href: '#/accounts' }, 'Top accounts')),
    section(
      'Registered miners',
      await pagedTable({
        caption: 'Registered miners',
        base: 'miners',
        query,
        load: async (p) => {
          const r = await client.read('getApiMiners', {}, p);
          return { items: r.miners, total: r.total };
        },
        head: ['name', 'miner id', 'address', 'tasks completed', 'reputation', 'capabilities'],
        row: (m) => [
          minerLink(m),
          idLink(`miner/${m.id}`, m.id, 8),
          addr(m.address),
          m.tasksCompleted.toLocaleString('en-US'),
          String(m.reputationScore),
          tags(m.capabilities),
        ],
        empty: 'No miners registered yet.',
      }),
    ),
  );
}

export async function leaderboardPage(client: OmbraClient) {
  const miners = [];
  for (let offset = 0; offset < LEADERBOARD_MAX; offset += 100) {
    const r = await client.read('getApiMiners', {}, { limit: 100, offset });
    miners.push(...r.miners);
    if (r.miners.length < 100 || miners.length >= r.total) break;
  }
  miners.sort((a, b) => b.tasksCompleted - a.tasksCompleted || b.reputationScore - a.reputationScore || a.name.localeCompare(b.name));
  const v = await client.read('getApiStatsValidators', {});
  return pageOf(
    'Leaderboard',
    section(
      'Miners by tasks completed',
      dataTable(
        'Miners by tasks completed, then reputation',
        ['rank', 'miner', 'address', 'tasks completed', 'reputation'],
        miners.map((m, i) => [
          String(i + 1),
          minerLink(m),
          addr(m.address),
          m.tasksCompleted.toLocaleString('en-US'),
          String(m.reputationScore),
        ]),
        'No miners registered yet.',
      ),
    ),
    section(
      `Authorities over the last ${v.blocks.toLocaleString('en-US')} blocks`,
      dataTable(
        'Authorities by blocks proposed',
        ['authority', 'blocks proposed', 'slots missed', 'share of blocks'],
        [...v.validators]
          .sort((a, b) => b.proposed - a.proposed)
          .map((x) => [
            addr(x.address),
            x.proposed.toLocaleString('en-US'),
            x.missed.toLocaleString('en-US'),
            v.blocks ? `${((100 * x.proposed) / v.blocks).toFixed(1)} %` : '—',
          ]),
        'No blocks yet.',
      ),
    ),
  );
}

export async function minerPage(client: OmbraClient, arg: string) {
  const [id, query] = splitArg(arg);
  if (!HASH.test(id)) return null;
  const m = await client.find('getApiMinersId', { id: id.toLowerCase() });
  if (!m) return null;
  let runs: HTMLElement;
  try {
    runs = await pagedTable({
      caption: 'Agent runs the miner served, newest first',
      base: `miner/${m.id}`,
      query,
      load: async (p) => {
        const r = await client.read('getApiAgentV6ByMinerAddress', { address: m.address }, p);
        return { items: r.runs, total: null };
      },
      head: ['run', 'status', 'submitter', 'steps', 'submitted'],
      row: (r) => [
        idLink(`run/${r.agentRunId}`, r.agentRunId, 8),
        badge(r.status),
        addr(r.submitter),
        `${r.stepCount}/${r.maxSteps}`,
        ageCell(r.submittedAt),
      ],
      empty: 'No agent runs served yet.',
    });
  } catch {
    runs = el('p', { class: 'muted' }, 'Agent runs are not active on this chain yet.');
  }
  return pageOf(
    ['Miner ', m.name],
    section(
      'Miner',
      fields('Miner', [
        ['Name', m.name],
        ['Miner id', fullId(m.id, null, 'miner id')],
        ['Address', fullId(m.address, `address/${m.address}`, 'miner address')],
        ['Tasks completed', m.tasksCompleted.toLocaleString('en-US')],
        ['Reputation', String(m.reputationScore)],
        ['Capabilities', tags(m.capabilities)],
      ]),
    ),
    section('Agent runs', runs),
  );
}
