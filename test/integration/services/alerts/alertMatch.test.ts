/** Matching a block against alert subscriptions: address_tx fires for every party a transaction names. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../../core/block.ts';
import type { SignedTx } from '../../../../core/tx/handler.ts';
import { agentRunsIn, matchBlock, SubscriptionIndex } from '../../../../services/alerts/alertMatch.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';

const [sender, recipient, stranger] = [DEV_KEYS[1].address, DEV_KEYS[2].address, DEV_KEYS[3].address];

function blockOf(...transactions: Record<string, unknown>[]): Block {
  return {
    index: 5,
    hash: 'ab'.repeat(32),
    timestamp: 1,
    proposer: DEV_KEYS[0].address,
    transactions: transactions as unknown as SignedTx[],
  } as unknown as Block;
}

function subs(...addresses: string[]): SubscriptionIndex {
  const index = new SubscriptionIndex();
  addresses.forEach((address, i) => index.add({ id: `s${i}`, trigger: 'address_tx', params: { address }, fromHeight: 0 }));
  return index;
}

test("address_tx fires for a direct message's recipient, a like's author and a mint's owner, not for a stranger", () => {
  const dm = { type: 'SOCIAL_DM_SEND', from: sender, recipient, hash: '01'.repeat(32) };
  const like = { type: 'SOCIAL_LIKE_INTENT', from: sender, author: recipient, hash: '02'.repeat(32) };
  const mint = { type: 'IMAGE_MINT', from: sender, owner: recipient, hash: '03'.repeat(32) };
  const matches = matchBlock(blockOf(dm, like, mint), subs(recipient, stranger));
  assert.deepEqual(
    matches.map((m) => [m.subId, m.eventKey]),
    [
      ['s0', `tx:${dm.hash}`],
      ['s0', `tx:${like.hash}`],
      ['s0', `tx:${mint.hash}`],
    ],
  );
});

test('a transaction to oneself fires its sender once', () => {
  const self = { type: 'TRANSFER', from: sender, to: sender, hash: '04'.repeat(32) };
  assert.equal(matchBlock(blockOf(self), subs(sender)).length, 1);
});

test('no subscription: nothing fires, whatever the block holds', () => {
  const transfer = { type: 'TRANSFER', from: sender, to: recipient, hash: '05'.repeat(32) };
  assert.deepEqual(matchBlock(blockOf(transfer), new SubscriptionIndex()), []);
  const index = subs(recipient);
  index.remove({ id: 's0', trigger: 'address_tx', params: { address: recipient }, fromHeight: 0 });
  assert.ok(index.empty());
  assert.deepEqual(matchBlock(blockOf(transfer), index), []);
});

test('agent runs are read off the transactions that carry a run id, their requester in state form', () => {
  const runId = 'cd'.repeat(32);
  const request = { type: 'AGENT_REQUEST', from: `ox${sender.slice(2).toUpperCase()}`, agentRunId: runId, hash: '06'.repeat(32) };
  const finish = { type: 'AGENT_FINISH', from: recipient, agentRunId: runId, outcome: 'completed', hash: '07'.repeat(32) };
  const transfer = { type: 'TRANSFER', from: sender, to: recipient, hash: '08'.repeat(32) };
  assert.deepEqual(agentRunsIn(blockOf(transfer, request, finish)), { opened: [[runId, sender]], finished: [runId] });
  assert.deepEqual(agentRunsIn({ ...blockOf(), transactions: 'not a list' } as unknown as Block), { opened: [], finished: [] });
});
