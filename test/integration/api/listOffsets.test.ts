/** Every list of the simulated chain pages with `offset`: each page is the slice of the whole list. */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { RUN_STATUSES } from '../../../projections/agentRuns.ts';
import { pageOffsets } from '../../helpers/pageOffsets.ts';
import { get, withChain } from '../../helpers/apiSupport.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const txs: Record<string, any>[] = lines.slice(2).flatMap((b: { transactions: Record<string, any>[] }) => b.transactions);

test('agent runs by status, submitter and miner, chat turns, chat-by-author and holders honour offset', () =>
  withChain(
    async (c) => {
      for (const b of lines.slice(2)) await c.node.importBlock(b);
      const run = (r: any) => r.agentRunId;
      const lists: { path: string; items: string; key: (x: any) => unknown; max: number; latestFirst?: boolean }[] = [
        ...RUN_STATUSES.map((s) => ({ path: `/api/agent/v6/by-status/${s}`, items: 'runs', key: run, max: 100 })),
        ...[...new Set(txs.filter((x) => x.type === 'AGENT_REQUEST').map((x) => x.from))].map((a) => ({
          path: `/api/agent/v6/by-submitter/${a}`,
          items: 'runs',
          key: run,
          max: 100,
        })),
        ...[...new Set(txs.filter((x) => x.type === 'AGENT_CLAIM').map((x) => x.from))].map((a) => ({
          path: `/api/agent/v6/by-miner/${a}`,
          items: 'runs',
          key: run,
          max: 100,
        })),
        ...[...new Set(txs.filter((x) => x.type === 'CHAT_TURN').map((x) => x.conversationId))].map((id) => ({
          path: `/api/agent/v6/chat/${id}/turns`,
          items: 'turns',
          key: (x: any) => x.hash,
          max: 1000,
          latestFirst: true,
        })),
        ...[...new Set(txs.filter((x) => x.type === 'CHAT_TURN').map((x) => x.from))].map((a) => ({
          path: `/api/agent/v6/chat-by-author/${a}`,
          items: 'conversationIds',
          key: (x: any) => x,
          max: 100,
        })),
        { path: '/api/tokenomics/holders', items: 'holders', key: (x: any) => x.address, max: 100 },
      ];
      let paged = 0;
      for (const l of lists) {
        const all = (await get(c, `${l.path}?limit=${l.max}`)).body[l.items].map(l.key);
        for (const offset of pageOffsets(all.length)) {
          const page = await get(c, `${l.path}?limit=2&offset=${offset}`);
          assert.equal(page.status, 200, `${l.path} offset ${offset}`);
          // Turns: `offset` skips the latest; the page is still in chronological order.
          const want = l.latestFirst
            ? all.slice(Math.max(0, all.length - offset - 2), Math.max(0, all.length - offset))
            : all.slice(offset, offset + 2);
          assert.deepEqual(page.body[l.items].map(l.key), want, `${l.path}?limit=2&offset=${offset}`);
          if (want.length > 0 && offset > 0) paged++;
        }
      }
      assert.ok(paged >= 10, `pages past the first were checked (${paged})`);
    },
    { genesis: parseGenesis(lines[0].genesis) },
  ));
