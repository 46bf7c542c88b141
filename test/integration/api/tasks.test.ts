/** The task read model: /api/chain/tasks, /api/chain/task/:id, /api/tasks/* and the fee estimate. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sha256Hex } from '../../../core/hash.ts';
import { signTx } from '../../../core/txCodec.ts';
import { ZERO_ADDRESS } from '../../../core/address.ts';
import { DEV_KEYS, type TestChain } from '../../helpers/testChain.ts';
import { fullTask, registerMiner, respond, submitTask } from '../../helpers/economy.ts';
import { assertError, assertKeys, call, DEV_ALLOCATION, get, nextNonce, snapshot, withChain } from '../../helpers/apiSupport.ts';

const A = (i: number) => DEV_KEYS[i].address;
const SUMMARY_KEYS = [
  'taskId',
  'status',
  'taskType',
  'responseCount',
  'hasValidation',
  'hasReward',
  'submitter',
  'fee',
  'timeoutMs',
  'submittedAt',
  'bestMinerId',
  'prompt',
];

async function miners(c: TestChain): Promise<string[]> {
  const ids = [await registerMiner(c, 2), await registerMiner(c, 3), await registerMiner(c, 4)];
  await c.produce();
  return ids;
}

test('a rewarded task shows submit, every response with its content, validation and the 70/5/25 reward', () =>
  withChain(async (c) => {
    const [m2, m3] = await miners(c);
    const { taskId, submit, responses, validation, reward } = await fullTask(c);
    const res = await get(c, `/api/chain/task/${taskId}`);
    assert.equal(res.status, 200);
    const b = res.body;
    const submittedAt = c.node.state().records.tasks.get(taskId)!.submittedAt;
    assert.deepEqual(
      { ...b, responses: undefined, validation: undefined, reward: undefined, submit: undefined },
      {
        taskId,
        status: 'rewarded',
        taskType: 'chat',
        responseCount: 2,
        hasValidation: true,
        hasReward: true,
        submitter: A(1),
        fee: '20000',
        timeoutMs: 60_000,
        submittedAt,
        bestMinerId: m2,
        prompt: 'What is 2 + 2?',
        responses: undefined,
        validation: undefined,
        reward: undefined,
        submit: undefined,
        timeout: null,
        nft: null,
      },
    );
    assert.deepEqual(b.submit, {
      txHash: submit.hash,
      blockIndex: 2,
      submitter: A(1),
      taskType: 'chat',
      prompt: 'What is 2 + 2?',
      fee: '20000',
      timeoutMs: 60_000,
      submittedAt,
      deadline: submittedAt + 60_000,
      settleBy: submittedAt + 660_000,
    });
    assert.deepEqual(b.responses, [
      {
        txHash: responses[0].hash,
        blockIndex: 3,
        minerId: m2,
        miner: A(2),
        contentHash: sha256Hex('4'),
        content: '4',
        model: 'm-1',
        tokensIn: 5,
        tokensOut: 1,
        thinkingTokens: null,
        durationMs: 40,
        timestamp: responses[0].timestamp,
      },
      {
        txHash: responses[1].hash,
        blockIndex: 3,
        minerId: m3,
        miner: A(3),
        contentHash: sha256Hex('four'),
        content: 'four',
        model: null,
        tokensIn: null,
        tokensOut: null,
        thinkingTokens: null,
        durationMs: null,
        timestamp: responses[1].timestamp,
      },
    ]);
    assert.deepEqual(b.validation, {
      txHash: validation.hash,
      blockIndex: 4,
      validator: A(0),
      bestMinerId: m2,
      scores: [
        { minerId: m2, score: 90 },
        { minerId: m3, score: 60 },
      ],
      timestamp: validation.timestamp,
    });
    assert.deepEqual(b.reward, {
      txHash: reward.hash,
      blockIndex: 5,
      rewards: [
        { address: A(2), amount: '14000', reason: 'miner' },
        { address: A(0), amount: '1000', reason: 'validator' },
        { address: ZERO_ADDRESS, amount: '5000', reason: 'burn' },
      ],
      timestamp: reward.timestamp,
    });
    assert.deepEqual((await get(c, `/api/tasks/${taskId}`)).body, b, '/api/tasks/:id has the same shape');
  }));

test('unknown ids answer 404, malformed ids 400', () =>
  withChain(async (c) => {
    assertError(await get(c, '/api/chain/task/abcdef0123456789'), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/tasks/abcdef0123456789'), 404, 'NOT_FOUND');
    assertError(await get(c, '/api/chain/task/short'), 400, 'INVALID_PARAMS');
    assertError(await get(c, `/api/tasks/${'x'.repeat(65)}`), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/tasks/bad!id%20here'), 400, 'INVALID_PARAMS');
  }));

test('a task nobody answers times out after timeoutMs and its escrow goes back to the submitter', () =>
  withChain(async (c) => {
    const { taskId } = await submitTask(c, 1, { timeoutMs: 5_000 });
    await c.produce();
    const before = (await c.queries.account(A(1))).balance;
    assert.equal((await get(c, `/api/chain/task/${taskId}`)).body.status, 'submitted');
    assert.deepEqual(
      (await get(c, '/api/tasks/active')).body.tasks.map((t: any) => t.taskId),
      [taskId],
    );
    c.advance(10_000);
    await c.produce();
    const b = (await get(c, `/api/chain/task/${taskId}`)).body;
    assert.equal(b.status, 'timeout');
    assert.deepEqual(b.timeout, { at: c.node.head().timestamp, refunded: '20000' });
    assert.equal((await c.queries.account(A(1))).balance, before + 20_000n);
    assert.deepEqual((await get(c, '/api/tasks/active')).body, { tasks: [], total: 0 });
    assert.deepEqual((await get(c, '/api/chain/tasks?status=timeout')).body.total, 1);
  }));

test('summaries newest first with total, limit, offset and a status filter', () =>
  withChain(async (c) => {
    await miners(c);
    const a = await submitTask(c, 1, { prompt: 'first' });
    const b = await submitTask(c, 1, { prompt: 'second', taskType: 'code_simple' });
    await c.produce();
    const d = await submitTask(c, 5, { prompt: 'third', taskId: 'my-task-0001' });
    await c.produce();
    await respond(c, 2, b.taskId, 'x');
    await c.produce();
    const all = (await get(c, '/api/chain/tasks')).body;
    assertKeys(all, ['tasks', 'total']);
    assert.equal(all.total, 3);
    assert.deepEqual(
      all.tasks.map((t: any) => t.taskId),
      ['my-task-0001', b.taskId, a.taskId],
    );
    for (const t of all.tasks) assertKeys(t, SUMMARY_KEYS, 'task summary');
    assert.deepEqual(all.tasks[1], {
      taskId: b.taskId,
      status: 'responses_collected',
      taskType: 'code_simple',
      responseCount: 1,
      hasValidation: false,
      hasReward: false,
      submitter: A(1),
      fee: '20000',
      timeoutMs: 120_000,
      submittedAt: all.tasks[1].submittedAt,
      bestMinerId: null,
      prompt: 'second',
    });
    assert.deepEqual((await get(c, '/api/chain/tasks?limit=1&offset=1')).body, { tasks: [all.tasks[1]], total: 3 });
    assert.deepEqual((await get(c, '/api/chain/tasks?status=submitted')).body, { tasks: [all.tasks[0], all.tasks[2]], total: 2 });
    assert.deepEqual((await get(c, '/api/chain/tasks?status=rewarded')).body, { tasks: [], total: 0 });
    assert.deepEqual((await get(c, '/api/tasks/active')).body, { tasks: all.tasks, total: 3 });
    assert.deepEqual((await get(c, '/api/tasks/active?limit=2&offset=1')).body, { tasks: all.tasks.slice(1), total: 3 });
    void d;
  }));

test('validated and rewarded tasks leave the active set', () =>
  withChain(async (c) => {
    await miners(c);
    const { taskId } = await fullTask(c);
    assert.deepEqual((await get(c, '/api/tasks/active')).body, { tasks: [], total: 0 });
    assert.deepEqual(
      (await get(c, '/api/chain/tasks?status=rewarded')).body.tasks.map((t: any) => t.taskId),
      [taskId],
    );
  }));

test('bad limit, offset and status answer 400', () =>
  withChain(async (c) => {
    for (const q of ['limit=-1', 'limit=abc', 'offset=-1', 'offset=x', 'status=done', 'status=SUBMITTED'])
      assertError(await get(c, `/api/chain/tasks?${q}`), 400, 'INVALID_PARAMS', undefined);
    assertError(await get(c, '/api/tasks/active?limit=abc'), 400, 'INVALID_PARAMS');
    assert.equal((await get(c, '/api/chain/tasks?limit=500')).status, 200, 'a large limit is clamped to 100');
  }));

const post = (c: TestChain, body: unknown) =>
  call(c, '/api/tasks/submit', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const unsignedTask = (c: TestChain, over: Record<string, unknown> = {}) => ({
  type: 'TASK_SUBMIT',
  from: A(1),
  taskType: 'chat',
  prompt: 'hello',
  fee: '15000',
  nonce: nextNonce(c, 1),
  timestamp: c.now(),
  ...over,
});

test('a signed TASK_SUBMIT without taskId gets the first 32 hex of its hash, then waits in /pending', () =>
  withChain(async (c) => {
    const tx = signTx(unsignedTask(c), DEV_KEYS[1]);
    const res = await post(c, tx);
    assert.deepEqual(res.body, { ok: true, taskId: tx.hash.slice(0, 32), txHash: tx.hash, hash: tx.hash });
    const pending = (await get(c, '/api/tasks/pending')).body;
    assert.deepEqual(pending, {
      tasks: [
        {
          taskId: tx.hash.slice(0, 32),
          txHash: tx.hash,
          submitter: A(1),
          taskType: 'chat',
          prompt: 'hello',
          fee: '15000',
          timeoutMs: 60_000,
          nonce: tx.nonce,
          timestamp: tx.timestamp,
        },
      ],
      total: 1,
    });
    await c.produce();
    assert.deepEqual((await get(c, '/api/tasks/pending')).body, { tasks: [], total: 0 });
    assert.equal((await get(c, `/api/tasks/${tx.hash.slice(0, 32)}`)).body.status, 'submitted');
  }));

test('/pending answers limit (default 30, clamped to 100) of the waiting TASK_SUBMITs from offset, in arrival order, with total', () =>
  withChain(async (c) => {
    const hashes: string[] = [];
    for (let i = 0; i < 36; i++) {
      const sender = 1 + (i % 3);
      // Transfers in between: the page counts TASK_SUBMITs only.
      if (i % 4 === 0) await c.node.submitTx(c.transfer(sender, A(5), 1n));
      const tx = signTx({ ...unsignedTask(c), from: A(sender), prompt: `task ${i}`, nonce: nextNonce(c, sender) }, DEV_KEYS[sender]);
      assert.equal((await post(c, tx)).status, 200);
      hashes.push(tx.hash);
    }
    const page = async (q: string) => (await get(c, `/api/tasks/pending${q}`)).body;
    const first = await page('');
    assert.equal(first.total, 36);
    assert.deepEqual(
      first.tasks.map((x: any) => x.txHash),
      hashes.slice(0, 30),
      'the first 30 by default',
    );
    assert.deepEqual((await page('?limit=1000')).tasks.length, 36, 'clamped to 100: all 36');
    assert.deepEqual(
      (await page('?offset=30')).tasks.map((x: any) => x.txHash),
      hashes.slice(30),
    );
    assert.deepEqual(
      (await page('?limit=2&offset=7')).tasks.map((x: any) => x.txHash),
      hashes.slice(7, 9),
    );
    assert.deepEqual(await page('?offset=36'), { tasks: [], total: 36 });
    assertError(await get(c, '/api/tasks/pending?limit=-1'), 400, 'INVALID_PARAMS');
    assertError(await get(c, '/api/tasks/pending?offset=x'), 400, 'INVALID_PARAMS');
  }));

test('the older {tx, signature} form and an explicit taskId', () =>
  withChain(async (c) => {
    const signed = signTx(unsignedTask(c, { taskId: 'client-chosen-1' }), DEV_KEYS[1]);
    const { hash, signature, ...tx } = signed;
    const res = await post(c, { tx, signature });
    assert.deepEqual(res.body, { ok: true, taskId: 'client-chosen-1', txHash: hash, hash });
  }));

test('refusals match POST /api/chain/tx, another type is 400, and nothing changes', () =>
  withChain(async (c) => {
    const before = snapshot(c);
    assertError(await post(c, '{nope'), 400, 'INVALID_JSON');
    assertError(await post(c, c.transfer(1, A(2), 5n)), 400, 'INVALID_PARAMS', 'body must be a signed TASK_SUBMIT transaction');
    const cheap = signTx(unsignedTask(c, { fee: '9999' }), DEV_KEYS[1]);
    assertError(await post(c, cheap), 422, 'VALIDATION_FAILED', 'task fee must be at least 10000');
    const chain = await call(c, '/api/chain/tx', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(cheap),
    });
    assert.deepEqual((await post(c, cheap)).body, chain.body);
    const forged = { ...signTx(unsignedTask(c), DEV_KEYS[1]), signature: signTx(unsignedTask(c, { prompt: 'x' }), DEV_KEYS[1]).signature };
    assertError(await post(c, forged), 422, 'INVALID_SIGNATURE');
    const rich = signTx(unsignedTask(c, { fee: (DEV_ALLOCATION + 1n).toString() }), DEV_KEYS[1]);
    assertError(await post(c, rich), 400, 'INSUFFICIENT_BALANCE');
    assert.deepEqual(snapshot(c), before);
  }));

test('no submissions: MIN_TASK_FEE for all three and sample 0', () =>
  withChain(async (c) => {
    assert.deepEqual((await get(c, '/api/chain/fee-estimate')).body, { low: '10000', medium: '10000', high: '10000', sample: 0 });
  }));

test('nearest-rank 25th/50th/90th percentiles of the submitted fees in blocks (not the mempool)', () =>
  withChain(async (c) => {
    for (let i = 1; i <= 10; i++) await submitTask(c, 1 + (i % 3), { fee: String(10_000 * i), prompt: `p${i}` });
    assert.equal((await get(c, '/api/chain/fee-estimate')).body.sample, 0, 'pending submissions do not count');
    await c.produce();
    assert.deepEqual((await get(c, '/api/chain/fee-estimate')).body, { low: '30000', medium: '50000', high: '90000', sample: 10 });
  }));

test('the sample keeps the last 100 submissions', () =>
  withChain(async (c) => {
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 40; i++) await submitTask(c, 1 + (i % 9), { fee: String(10_000 * (round + 1)), prompt: `r${round}-${i}` });
      await c.produce();
    }
    const b = (await get(c, '/api/chain/fee-estimate')).body;
    assert.equal(b.sample, 100);
    // The last 100: 20 of 10,000, 40 of 20,000, 40 of 30,000 (all 120 would put the 25th at 10,000).
    assert.deepEqual(b, { low: '20000', medium: '20000', high: '30000', sample: 100 });
  }));
