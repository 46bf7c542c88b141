// Conversations: one conversation with its chat turns paged (page 1: the latest turns), and the
// conversations an address wrote in.
import type { OmbraClient } from '../../client/browser.ts';
import { orNotActive } from './agentPages.ts';
import { el } from './dom.ts';
import { addr, ageCell, badge, fields, fullId, idLink, none, pageOf, section, utc } from './format.ts';
import { pagedTable, splitArg } from './paging.ts';

const HASH = /^[0-9a-fA-F]{64}$/;
const ADDRESS = /^ox[0-9a-fA-F]{40}$/;

export async function conversationPage(client: OmbraClient, arg: string) {
  const [id, query] = splitArg(arg);
  if (!HASH.test(id)) return null;
  const c = await orNotActive(() => client.find('getApiAgentV6ChatConversationId', { conversationId: id.toLowerCase() }));
  if (!c || c instanceof Node) return c;
  const turns = await pagedTable({
    caption: 'Turns, in chronological order within the page (page 1: the latest)',
    base: `conversation/${c.conversationId}`,
    query,
    load: async (p) => {
      const r = await client.read('getApiAgentV6ChatConversationIdTurns', { conversationId: c.conversationId }, p);
      return { items: r.turns, total: c.turnCount };
    },
    head: ['role', 'from', 'content', 'run', 'turn', 'age'],
    row: (t) => [
      badge(t.role),
      addr(t.from),
      el('pre', { class: 'turn', tabindex: '0' }, t.content),
      t.agentRunId ? idLink(`run/${t.agentRunId}`, t.agentRunId, 6) : none(),
      idLink(`tx/${t.hash}`, t.hash, 6),
      ageCell(t.timestamp),
    ],
    empty: 'No turns.',
  });
  return pageOf(
    ['Conversation ', el('span', { class: 'mono id' }, c.conversationId)],
    section(
      'Conversation',
      fields('Conversation', [
        ['Creator', fullId(c.creator, `address/${c.creator}`, 'creator address')],
        ['Turns', String(c.turnCount)],
        ['First turn', utc(c.firstTurnAt)],
        ['Latest turn', utc(c.lastTurnAt)],
      ]),
    ),
    section('Chat turns (latest first by page)', turns),
  );
}

export async function conversationsPage(client: OmbraClient, arg: string) {
  const [a, query] = splitArg(arg);
  if (!ADDRESS.test(a)) return null;
  const author = a.toLowerCase();
  const body = await orNotActive(() =>
    pagedTable({
      caption: 'Conversations the address wrote in',
      base: `conversations/${author}`,
      query,
      load: async (p) => {
        const r = await client.read('getApiAgentV6ChatByAuthorAddress', { address: author }, p);
        // `count` is the page's length: the total is not known.
        return { items: r.conversationIds, total: null };
      },
      head: ['conversation'],
      row: (id) => [idLink(`conversation/${id}`, id, 16)],
      empty: 'No conversations.',
    }),
  );
  return pageOf(['Conversations of ', el('span', { class: 'mono id' }, author)], section('Conversations', body));
}
