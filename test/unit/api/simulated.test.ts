/** The recorded simulated chain (fixtures/simulated-chain.ndjson) through the economy read routes. */
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGenesis } from '../../../core/genesis.ts';
import { sha256Hex } from '../../../core/hash.ts';
import { RUN_STATUSES } from '../../../projections/agentRuns.ts';
import { get, withChain } from '../../helpers/apiSupport.ts';

const lines = readFileSync(new URL('../../../fixtures/simulated-chain.ndjson', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));
const genesis = parseGenesis(lines[0].genesis);

test('every task, run, NFT and conversation the consensus state holds is served, and agrees with it', () =>
  withChain(
    async (c) => {
      for (const b of lines.slice(2)) await c.node.importBlock(b);
      const s = c.node.state();
      const txs = lines.slice(2).flatMap((b: { transactions: { type: string; conversationId?: string }[] }) => b.transactions);
      assert.ok(s.records.tasks.size > 0 && s.records.runs.size > 0, 'the fixture has tasks and runs');
      const tasks = (await get(c, '/api/chain/tasks?limit=100')).body;
      assert.equal(tasks.total, s.records.tasks.size);
      for (const [id, task] of s.records.tasks) {
        const p = (await get(c, `/api/chain/task/${id}`)).body;
        assert.deepEqual(
          [p.status, p.responseCount, p.hasReward, p.nft],
          [task.status, task.responses.length, task.rewardTxHash !== undefined, task.nftTokenId ?? null],
        );
        for (const r of p.responses) assert.equal(sha256Hex(r.content), r.contentHash);
        assert.equal(p.reward?.txHash ?? undefined, task.rewardTxHash);
      }
      let byStatus = 0;
      for (const status of RUN_STATUSES) byStatus += (await get(c, `/api/agent/v6/by-status/${status}?limit=100`)).body.count;
      assert.equal(byStatus, s.records.runs.size);
      for (const [id, run] of s.records.runs) {
        const r = (await get(c, `/api/agent/v6/run/${id}`)).body;
        assert.deepEqual(
          [r.status, r.stepCount, r.minerReward, r.userRefund, r.networkFee],
          [run.status, run.stepCount, run.minerReward, run.userRefund, run.networkFee],
        );
        assert.equal((await get(c, `/api/agent/v6/run/${id}/steps`)).body.count, run.stepCount);
      }
      assert.equal((await get(c, '/api/nft/')).body.total, s.records.nfts.size);
      const submits = txs.filter((x) => x.type === 'TASK_SUBMIT').length;
      assert.equal((await get(c, '/api/chain/fee-estimate')).body.sample, Math.min(100, submits));
      const conversations = new Set(txs.filter((x) => x.type === 'CHAT_TURN').map((x) => x.conversationId));
      for (const id of conversations) {
        const turns = txs.filter((x) => x.type === 'CHAT_TURN' && x.conversationId === id).length;
        assert.equal((await get(c, `/api/agent/v6/chat/${id}`)).body.turnCount, turns);
      }
      const overview = (await get(c, '/api/analytics/overview?range=30d')).body;
      assert.equal(overview.txCount, txs.length);
      assert.equal(overview.totalBurned, s.supply.burned.toString());
    },
    { genesis },
  ));
