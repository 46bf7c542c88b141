/** /api/agent/v6: runs, steps, runs by status, submitter and miner, conversations and turns. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS, fixtureGenesis, type TestChain } from '../../helpers/testChain.ts';
import { h, registerMiner, requestRun, send } from '../../helpers/economy.ts';
import { assertError, assertKeys, get, STRANGER, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const RUN_KEYS = [
  'agentRunId',
  'conversationId',
  'submitter',
  'prompt',
  'toolsWhitelist',
  'maxFee',
  'maxSteps',
  'status',
  'minerAddress',
  'modelInfo',
  'hardwareTier',
  'stepCount',
  'totalTokensOut',
  'minerReward',
  'userRefund',
  'networkFee',
  'finalAnswerInline',
  'submittedAt',
  'claimedAt',
  'finishedAt',
  'blockIndex',
];
const TOOL = { name: 'chain_get_block', argsHash: h('args'), resultHash: h('result'), durationMs: 12, ok: true };

const step = (c: TestChain, runId: string, stepIndex: number, outputTokens: number) =>
  send(c, 2, 'AGENT_STEP', {
    agentRunId: runId,
    stepIndex,
    outputTokens,
    outputHash: h(`out-${stepIndex}`),
    toolCalls: stepIndex === 0 ? [TOOL] : [],
    fee: '1000',
  });

test('a run from request to completion: record, steps and every index along the way', () =>
  withChain(async (c) => {
    await registerMiner(c, 2);
    await c.produce();
    const { agentRunId: id, tx } = await requestRun(c, 1);
    await c.produce();
    const pending = (await get(c, `/api/agent/v6/run/${id}`)).body;
    assertKeys(pending, RUN_KEYS, 'run record');
    const submittedAt = c.node.head().timestamp;
    assert.deepEqual(pending, {
      agentRunId: id,
      conversationId: tx.conversationId,
      submitter: A(1),
      prompt: 'summarise block 1',
      toolsWhitelist: ['chain_get_block'],
      maxFee: '100000',
      maxSteps: 5,
      status: 'pending',
      minerAddress: null,
      modelInfo: null,
      hardwareTier: null,
      stepCount: 0,
      totalTokensOut: 0,
      minerReward: '0',
      userRefund: '0',
      networkFee: '0',
      finalAnswerInline: null,
      submittedAt,
      claimedAt: null,
      finishedAt: null,
      blockIndex: 2,
    });
    assert.deepEqual((await get(c, '/api/agent/v6/by-status/pending')).body, { status: 'pending', count: 1, runs: [pending] });
    assert.deepEqual((await get(c, `/api/agent/v6/by-submitter/${A(1)}`)).body, { submitter: A(1), count: 1, runs: [pending] });
    await send(c, 2, 'AGENT_CLAIM', { agentRunId: id, modelInfo: 'llama-3-8b', hardwareTier: 'desktop', fee: '1000' });
    await c.produce();
    const claimedAt = c.node.head().timestamp;
    assert.deepEqual((await get(c, '/api/agent/v6/by-status/pending')).body, { status: 'pending', count: 0, runs: [] });
    const claimed = (await get(c, `/api/agent/v6/by-miner/${A(2)}`)).body;
    assert.deepEqual(claimed, {
      miner: A(2),
      count: 1,
      runs: [{ ...pending, status: 'claimed', minerAddress: A(2), modelInfo: 'llama-3-8b', hardwareTier: 'desktop', claimedAt }],
    });
    const s0 = await step(c, id, 0, 10);
    await c.produce();
    const s1 = await step(c, id, 1, 20);
    await c.produce();
    assert.deepEqual((await get(c, `/api/agent/v6/run/${id}/steps`)).body, {
      agentRunId: id,
      count: 2,
      steps: [
        { stepIndex: 0, outputTokens: 10, outputHash: h('out-0'), toolCalls: [TOOL], timestamp: s0.timestamp, blockIndex: 4 },
        { stepIndex: 1, outputTokens: 20, outputHash: h('out-1'), toolCalls: [], timestamp: s1.timestamp, blockIndex: 5 },
      ],
    });
    assert.equal((await get(c, '/api/agent/v6/by-status/running')).body.count, 1);
    await send(c, 2, 'AGENT_FINISH', {
      agentRunId: id,
      outcome: 'completed',
      finalAnswerInline: 'block 1 has 1 tx',
      totalTokensOut: 50,
      fee: '1000',
    });
    await c.produce();
    const done = (await get(c, `/api/agent/v6/run/${id}`)).body;
    assert.deepEqual(done, {
      ...claimed.runs[0],
      status: 'completed',
      stepCount: 2,
      totalTokensOut: 50,
      minerReward: '50',
      networkFee: '200',
      userRefund: '99750',
      finalAnswerInline: 'block 1 has 1 tx',
      finishedAt: c.node.head().timestamp,
    });
    assert.equal(BigInt(done.minerReward) + BigInt(done.networkFee) + BigInt(done.userRefund), 100_000n);
    assert.deepEqual((await get(c, '/api/agent/v6/by-status/completed')).body, { status: 'completed', count: 1, runs: [done] });
    assert.deepEqual((await get(c, '/api/agent/v6/by-status/running')).body.runs, []);
  }));

test('an unclaimed run times out after 600,000 ms with a full refund, without a transaction', () =>
  withChain(async (c) => {
    const { agentRunId: id } = await requestRun(c, 1);
    await c.produce();
    c.advance(600_000);
    await c.produce();
    assert.equal((await get(c, `/api/agent/v6/run/${id}`)).body.status, 'pending', 'a block exactly at the deadline does not expire it');
    await c.produce();
    const r = (await get(c, `/api/agent/v6/run/${id}`)).body;
    assert.deepEqual(
      [r.status, r.minerReward, r.networkFee, r.userRefund, r.finishedAt],
      ['timeout', '0', '0', '100000', c.node.head().timestamp],
    );
    assert.deepEqual((await get(c, '/api/agent/v6/by-status/timeout')).body.runs, [r]);
    assert.deepEqual((await get(c, '/api/agent/v6/by-status/pending')).body.count, 0);
  }));

test('by-status lists oldest first, by-submitter newest first, with limit', () =>
  withChain(async (c) => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await requestRun(c, 1, { prompt: `job ${i}` })).agentRunId);
      await c.produce();
    }
    assert.deepEqual(
      (await get(c, '/api/agent/v6/by-status/pending?limit=2')).body.runs.map((r: any) => r.agentRunId),
      ids.slice(0, 2),
    );
    assert.deepEqual(
      (await get(c, `/api/agent/v6/by-submitter/${A(1)}?limit=2`)).body.runs.map((r: any) => r.agentRunId),
      [ids[2], ids[1]],
    );
    assert.deepEqual((await get(c, `/api/agent/v6/by-miner/${A(2)}`)).body, { miner: A(2), count: 0, runs: [] });
  }));

test('unknown runs 404, bad ids, statuses, addresses and limits 400', () =>
  withChain(async (c) => {
    const none = 'ef'.repeat(32);
    assertError(await get(c, `/api/agent/v6/run/${none}`), 404, 'NOT_FOUND');
    assertError(await get(c, `/api/agent/v6/run/${none}/steps`), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/agent/v6/run/123'), 400, 'INVALID_PARAMS');
    assertError(
      await get(c, '/api/agent/v6/by-status/done'),
      400,
      'INVALID_PARAMS',
      /^status must be one of pending, claimed, running, completed, failed, timeout, insufficient_funds, cancelled$/,
    );
    assertError(await get(c, '/api/agent/v6/by-status/pending?limit=-1'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/agent/v6/by-submitter/oxnope'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/agent/v6/by-miner/abc'), 400, 'INVALID_PARAMS');
    assertError(await get(c, `/api/agent/v6/by-miner/${STRANGER}?limit=abc`), 400, 'INVALID_PARAMS');
  }));

const turn = (c: TestChain, i: number, conversationId: string, content: string, over: Record<string, unknown> = {}) =>
  send(c, i, 'CHAT_TURN', { conversationId, role: i === 1 ? 'user' : 'assistant', content, fee: '1000', ...over });

test("a conversation: record, turns in chronological order (the latest `limit`), and each author's conversations", () =>
  withChain(async (c) => {
    const conv = h('conversation-1');
    const other = h('conversation-2');
    const t1 = await turn(c, 1, conv, 'hello');
    await c.produce();
    const t2 = await turn(c, 2, conv, 'hi there', { parentTurnHash: t1.hash });
    const t3 = await turn(c, 1, other, 'second chat');
    await c.produce();
    const t4 = await turn(c, 1, conv, 'bye');
    await c.produce();
    assert.deepEqual((await get(c, `/api/agent/v6/chat/${conv}`)).body, {
      conversationId: conv,
      creator: A(1),
      turnCount: 3,
      firstTurnAt: t1.timestamp,
      lastTurnAt: t4.timestamp,
    });
    const all = (await get(c, `/api/agent/v6/chat/${conv}/turns`)).body;
    assert.deepEqual(all, {
      conversationId: conv,
      count: 3,
      turns: [
        {
          hash: t1.hash,
          from: A(1),
          role: 'user',
          content: 'hello',
          agentRunId: null,
          parentTurnHash: null,
          timestamp: t1.timestamp,
          blockIndex: 1,
        },
        {
          hash: t2.hash,
          from: A(2),
          role: 'assistant',
          content: 'hi there',
          agentRunId: null,
          parentTurnHash: t1.hash,
          timestamp: t2.timestamp,
          blockIndex: 2,
        },
        {
          hash: t4.hash,
          from: A(1),
          role: 'user',
          content: 'bye',
          agentRunId: null,
          parentTurnHash: null,
          timestamp: t4.timestamp,
          blockIndex: 3,
        },
      ],
    });
    assert.deepEqual((await get(c, `/api/agent/v6/chat/${conv}/turns?limit=2`)).body, {
      conversationId: conv,
      count: 2,
      turns: all.turns.slice(1),
    });
    assert.deepEqual((await get(c, `/api/agent/v6/chat-by-author/${A(1)}`)).body, {
      author: A(1),
      count: 2,
      conversationIds: [conv, other],
    });
    assert.deepEqual((await get(c, `/api/agent/v6/chat-by-author/${A(2)}`)).body, { author: A(2), count: 1, conversationIds: [conv] });
    assert.deepEqual((await get(c, `/api/agent/v6/chat-by-author/${A(1)}?limit=1`)).body, {
      author: A(1),
      count: 1,
      conversationIds: [conv],
    });
    void t3;
  }));

test('a turn can name its agent run; limits: default 200, at most 1000; bad input 400; unknown 404', () =>
  withChain(async (c) => {
    const { agentRunId, tx } = await requestRun(c, 1);
    await c.produce();
    await turn(c, 1, tx.conversationId as string, 'go', { agentRunId });
    await c.produce();
    const turns = (await get(c, `/api/agent/v6/chat/${tx.conversationId}/turns?limit=5000`)).body;
    assert.deepEqual(
      turns.turns.map((t: any) => t.agentRunId),
      [agentRunId],
    );
    // A turn may only name a run of its own conversation.
    const res = await c.app.request('/api/chain/tx', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        signTx(
          {
            type: 'CHAT_TURN',
            from: A(1),
            conversationId: h('elsewhere'),
            role: 'user',
            content: 'x',
            agentRunId,
            fee: '1000',
            nonce: (await c.queries.account(A(1))).nonce,
            timestamp: c.now(),
          },
          DEV_KEYS[1],
        ),
      ),
    });
    assert.deepEqual(
      [res.status, await res.json()],
      [422, { error: `run ${agentRunId} belongs to conversation ${tx.conversationId}`, code: 'VALIDATION_FAILED' }],
    );
    const none = '12'.repeat(32);
    assertError(await get(c, `/api/agent/v6/chat/${none}`), 404, 'NOT_FOUND');
    assertError(await get(c, `/api/agent/v6/chat/${none}/turns`), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/agent/v6/chat/xyz'), 400, 'INVALID_PARAMS');
    assertError(await get(c, `/api/agent/v6/chat/${tx.conversationId}/turns?limit=-1`), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/agent/v6/chat-by-author/bob'), 400, 'INVALID_PARAMS');
    assert.deepEqual((await get(c, `/api/agent/v6/chat-by-author/${STRANGER}`)).body, { author: STRANGER, count: 0, conversationIds: [] });
  }));

test('before fork 6 every /api/agent/v6 route answers 403 FORK_NOT_ACTIVE', () =>
  withChain(
    async (c) => {
      const x = 'ab'.repeat(32);
      for (const p of [
        `run/${x}`,
        `run/${x}/steps`,
        'by-status/pending',
        'by-status/nope',
        `by-submitter/${STRANGER}`,
        `by-miner/${STRANGER}`,
        `chat/${x}`,
        `chat/${x}/turns`,
        `chat-by-author/${STRANGER}`,
      ]) {
        assertError(await get(c, `/api/agent/v6/${p}`), 403, 'FORK_NOT_ACTIVE', /needs fork 6 \(height 1000000\), next block is 1$/);
      }
    },
    { genesis: fixtureGenesis('late-forks-genesis.json') },
  ));
