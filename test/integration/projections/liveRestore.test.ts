/**
 * Restarts cost what is live, not the history nor the accounts (docs/memory.md, "Records",
 * "Accounts"): with a bounded cache the consensus state's restore reads the supply and the open
 * records (their `!o:` marks, then one read of them all) and no account row, the tasks and agent
 * runs models read their live rows only, and each gives the state a complete read would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChainState } from '../../../core/state.ts';
import { accountsProjection } from '../../../projections/accounts.ts';
import { agentRunsProjection } from '../../../projections/agentRuns.ts';
import type { Projection } from '../../../projections/projection.ts';
import type { Rows } from '../../../projections/store.ts';
import { tasksProjection } from '../../../projections/tasks.ts';
import { DEV_GENESIS } from '../../helpers/coreSupport.ts';
import { pureTraffic, type Act } from '../../helpers/taskTraffic.ts';
import { openTestChain } from '../../helpers/testChain.ts';

/** An iterator over `sub` that counts the rows it hands out, and those read through its `db`. */
function counted(sub: Rows): { it: AsyncIterable<[string, unknown]>; read: () => number; accounts: () => number } {
  const inner = sub.iterator();
  let n = 0;
  let accounts = 0;
  const it = {
    seek: (k: string) => inner.seek(k),
    close: () => inner.close(),
    db: {
      getMany: (keys: string[]) => {
        n += keys.length;
        return sub.getMany(keys);
      },
    },
    next: async () => {
      const e = await inner.next();
      if (e) n++;
      if (typeof e?.[0] === 'string' && e[0].startsWith('a:')) accounts++;
      return e;
    },
    async *[Symbol.asyncIterator]() {
      for (let e = await it.next(); e; e = await it.next()) yield e as [string, unknown];
    },
  };
  return { it: it as unknown as AsyncIterable<[string, unknown]>, read: () => n, accounts: () => accounts };
}

async function rowCount(sub: Rows): Promise<number> {
  let n = 0;
  for await (const _ of sub.keys()) n++;
  return n;
}

test('a restart on 600 tasks and runs, few open, reads a few dozen rows, no account, and restores the same states', async () => {
  const acts: Act[] = [];
  for (let b = 0; b < 12; b++) {
    for (let i = 0; i < 50; i++) acts.push({ k: 'submit', fee: 10_000 + i, nft: false });
    acts.push({ k: 'request', maxFee: 500, steps: 2 }, { k: 'block' });
    for (let j = 0; j < 4; j++) acts.push({ k: 'progressTask', task: b * 50 + j, miner: 4 });
    acts.push({ k: 'wait', ms: 700_000 });
  }
  // The last batch stays open.
  for (let i = 0; i < 5; i++) acts.push({ k: 'submit', fee: 20_000, nft: false });
  acts.push({ k: 'request', maxFee: 500, steps: 2 });
  const { blocks } = pureTraffic(DEV_GENESIS, acts);
  const c = await openTestChain({
    genesis: DEV_GENESIS,
    clock: blocks[blocks.length - 1].block.timestamp + 1000,
    recordCache: 2,
    accountCache: 4,
  });
  try {
    await c.node.importBlocks(blocks.map((b) => b.block));
    await c.node.runner.flush();
    const info = c.node.info;
    const check = async (p: Projection<any>, atMost: number, stored: number, same: (a: any, b: any) => void) => {
      const sub = c.node.runner.rows(p);
      const { it, read, accounts } = counted(sub);
      const live = await p.restore!(it, info);
      const total = await rowCount(sub);
      assert.ok(read() <= atMost, `${p.name}: read ${read()} of ${total} rows, at most ${atMost}`);
      assert.ok(total >= stored, `${p.name}: ${total} rows stored`);
      // The walk over the open marks ends at the first row after them: an account's, not applied.
      assert.ok(accounts() <= 1, `${p.name}: ${accounts()} account rows read`);
      same(live, c.node.runner.state(p));
    };
    const open = (s: ChainState) => Object.fromEntries(Object.entries(s.open).map(([k, v]) => [k, [...(v as Set<string>)].sort()]));
    await check(accountsProjection, 20, 600, (a: ChainState, b: ChainState) => {
      assert.equal(a.accounts.size, 0, 'accounts are read as blocks and queries need them');
      assert.ok(b.accounts.size <= 4, `accounts held: ${b.accounts.size}`);
      assert.deepEqual(a.supply, b.supply, 'supply');
      assert.deepEqual(open(a), open(b), 'open records');
      assert.ok(a.records.tasks.size <= 6 && a.records.tasks.size >= 5, `tasks held: ${a.records.tasks.size}`);
    });
    await check(tasksProjection, 60, 1800, (a, b) => assert.deepEqual(a, b, 'tasks: live tasks, lists, counters'));
    await check(agentRunsProjection, 3, 36, (a, b) => assert.deepEqual(a, b, 'agent runs: the open ones'));
  } finally {
    await c.destroy();
  }
});
