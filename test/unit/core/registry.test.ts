import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import { defineRecord } from '../../../core/record.ts';
import { f, defineTx } from '../../../core/schema.ts';
import { cloneState, commitDiff, emptyState } from '../../../core/state.ts';
import { StateOverlay } from '../../../core/stateOverlay.ts';
import { RUNS } from '../../../core/tx/agent/agent.ts';
import { defineFamily, expireDue } from '../../../core/tx/family.ts';
import { type SignedTx, txHandler } from '../../../core/tx/handler.ts';
import { MINERS } from '../../../core/tx/miner.ts';
import {
  FAMILIES,
  partiesOf,
  RECORD_KINDS,
  RECORD_PREFIX,
  RECORDS,
  TX_HANDLERS,
  TX_TYPES,
  tokensConsumedBy,
  txEvents,
} from '../../../core/tx/registry.ts';
import { TASKS, type Task } from '../../../core/tx/task/task.ts';
import { exampleTx } from '../../helpers/txExamples.ts';
import { DEV_GENESIS, DEV_KEYS } from '../../helpers/coreSupport.ts';

const task = (over: Partial<Task>): Task => ({
  taskId: 'task0001',
  submitter: DEV_KEYS[1].address,
  taskType: 'chat',
  prompt: 'hi',
  fee: '10000',
  timeoutMs: 60_000,
  submittedAt: 1_000,
  submitBlock: 1,
  submitTxHash: 'aa'.repeat(32),
  status: 'submitted',
  responses: [],
  ...over,
});

test('the record kinds keep their state-root prefixes', () => {
  assert.deepEqual(
    { ...RECORD_PREFIX },
    {
      tasks: 't',
      miners: 'm',
      runs: 'r',
      blobs: 'b',
      blobChunks: 'bc',
      blobPending: 'bp',
      posts: 'p',
      likers: 'pl',
      dmIds: 'dm',
      follows: 'fo',
      intents: 'li',
      likePairs: 'lp',
      likeQueues: 'lq',
      likeDaily: 'ld',
      likeOrder: 'lo',
      likeClock: 'lc',
      webSites: 'ws',
      webFiles: 'wf',
      webReleases: 'wr',
      webAliases: 'wa',
      webUploads: 'fu',
      webChunks: 'fc',
      webPending: 'fp',
      nfts: 'n',
      imageNfts: 'ni',
      audioNfts: 'na',
    },
  );
  assert.deepEqual([...RECORD_KINDS].sort(), Object.keys(RECORD_PREFIX).sort());
  assert.equal(new Set(RECORDS.map((r) => r.prefix)).size, RECORDS.length);
  for (const r of RECORDS) assert.ok(!['a', 's'].includes(r.prefix), r.kind);
});

test('a transaction involves its sender and every top-level address its schema names, each once', () => {
  const [a, b] = [DEV_KEYS[1].address, DEV_KEYS[2].address];
  const tx = (type: string, fields: Record<string, unknown>) => ({ type, from: a, ...fields }) as unknown as SignedTx;
  assert.deepEqual(partiesOf(tx('TRANSFER', { to: b })), [a, b]);
  assert.deepEqual(partiesOf(tx('TRANSFER', { to: a })), [a]);
  assert.deepEqual(partiesOf(tx('SOCIAL_DM_SEND', { recipient: b })), [a, b]);
  assert.deepEqual(partiesOf(tx('SOCIAL_LIKE_INTENT', { author: b })), [a, b]);
  assert.deepEqual(partiesOf(tx('SOCIAL_FOLLOW_SET', { targetAddress: b })), [a, b]);
  assert.deepEqual(partiesOf(tx('IMAGE_MINT', { owner: b })), [a, b]);
  assert.deepEqual(partiesOf(tx('TASK_SUBMIT', { to: b })), [a], 'only fields the schema types as addresses');
  for (const type of TX_TYPES) {
    const example = exampleTx(type, DEV_KEYS[1]);
    const parties = partiesOf(example);
    assert.equal(parties[0], example.from, type);
    assert.equal(new Set(parties).size, parties.length, type);
  }
});

test('every type belongs to exactly one family, the one its schema names', () => {
  const names = FAMILIES.map((fam) => fam.name);
  assert.equal(new Set(names).size, names.length);
  const listed = FAMILIES.flatMap((fam) => fam.handlers.map((h) => h.schema.type));
  assert.deepEqual(listed, [...TX_TYPES]);
  assert.equal(TX_HANDLERS.size, listed.length);
  for (const fam of FAMILIES) for (const h of fam.handlers) assert.equal(h.schema.family, fam.name, h.schema.type);
});

test('defineFamily refuses a handler whose schema names another family', () => {
  const OTHER = defineTx({
    type: 'X_OTHER',
    family: 'other',
    fork: 1,
    doc: 'test',
    fields: { from: f.address(), nonce: f.uint(), timestamp: f.uint() },
  });
  assert.throws(
    () => defineFamily({ name: 'mine', handlers: [txHandler(OTHER, { cost: () => ({ balance: 0n, storage: 0n }), apply() {} })] }),
    /X_OTHER is of family other, not mine/,
  );
});

test('the state holds one map per registered record kind and an open set per kind that declares isOpen', () => {
  const s = emptyState();
  assert.deepEqual(Object.keys(s.records).sort(), [...RECORD_KINDS].sort());
  assert.deepEqual(
    Object.keys(s.open).sort(),
    RECORDS.filter((r) => r.isOpen)
      .map((r) => r.kind)
      .sort(),
  );
  assert.deepEqual(Object.keys(s.open).sort(), ['blobs', 'runs', 'tasks', 'webUploads']);
});

test('records are read and written through their definitions, and committing tracks the open ones', () => {
  const { state } = genesisState(DEV_GENESIS);
  const s = new StateOverlay(state);
  s.put(TASKS, 'task0001', task({}));
  s.put(TASKS, 'task0002', task({ taskId: 'task0002', status: 'rewarded' }));
  assert.equal(s.get(TASKS, 'task0001')?.status, 'submitted');
  assert.equal(s.get(MINERS, 'task0001'), undefined);
  const child = new StateOverlay(s);
  child.put(TASKS, 'task0003', task({ taskId: 'task0003' }));
  assert.equal(s.get(TASKS, 'task0003'), undefined, 'a child overlay leaves its parent alone');
  assert.equal(child.get(TASKS, 'task0001')?.taskId, 'task0001', 'a child overlay reads through to its parent');
  child.mergeIntoParent();
  assert.equal(state.records.tasks.size, 0, 'the base is untouched until commit');
  commitDiff(state, s.diff());
  assert.deepEqual([...state.open.tasks!].sort(), ['task0001', 'task0003']);
  const next = new StateOverlay(state);
  next.put(TASKS, 'task0001', task({ status: 'timeout' }));
  assert.deepEqual([...next.openIds(TASKS)].sort(), ['task0001', 'task0003'], 'changed records are revisited');
  commitDiff(state, next.diff());
  assert.deepEqual([...state.open.tasks!], ['task0003']);
  assert.deepEqual(cloneState(state).open, state.open);
});

test('expireDue hands over, in id order, only open records whose deadline passed', () => {
  const { state } = genesisState(DEV_GENESIS);
  const s = new StateOverlay(state);
  s.put(TASKS, 'task0003', task({ taskId: 'task0003', submittedAt: 5_000 }));
  s.put(TASKS, 'task0002', task({ taskId: 'task0002' }));
  s.put(TASKS, 'task0001', task({ taskId: 'task0001', status: 'rewarded' }));
  const seen: string[] = [];
  expireDue(
    s,
    TASKS,
    64_000,
    (x) => x.submittedAt + x.timeoutMs,
    (x) => seen.push(x.taskId),
  );
  assert.deepEqual(seen, ['task0002']);
  const plain = defineRecord<{ id: string }>()('plain', { prefix: 'z', id: 'id', doc: 'plain' });
  assert.throws(
    () =>
      expireDue(
        s,
        plain,
        0,
        () => 0,
        () => {},
      ),
    /declares no isOpen/,
  );
});

test('tokens consumed come from the types that report them: TASK_RESPONSE tokensOut + thinkingTokens', () => {
  const response = exampleTx('TASK_RESPONSE', DEV_KEYS[1], { tokensOut: 700, thinkingTokens: 40 });
  const bare: SignedTx = { ...response, tokensOut: undefined, thinkingTokens: undefined };
  const burn = exampleTx('BURN', DEV_KEYS[1], { tokensConsumed: 5_000 });
  assert.equal(tokensConsumedBy([response, response, burn]), 1480n);
  assert.equal(tokensConsumedBy([bare, burn]), 0n);
  assert.deepEqual(
    [...TX_HANDLERS.values()].filter((h) => h.tokensConsumed).map((h) => h.schema.type),
    ['TASK_RESPONSE'],
  );
});

test('the agent channel events come from the agent definitions, fields in their announced order', () => {
  const events = txEvents('agent');
  assert.deepEqual([...events.keys()], ['AGENT_CLAIM', 'AGENT_STEP', 'AGENT_FINISH']);
  assert.deepEqual(events.get('AGENT_FINISH'), {
    channel: 'agent',
    event: 'finished',
    fields: ['outcome', 'totalTokensOut', 'finalAnswerInline'],
  });
  for (const [type, e] of events) for (const name of e.fields) assert.ok(name in TX_HANDLERS.get(type)!.schema.fields, `${type}.${name}`);
  assert.equal(txEvents('nothing').size, 0);
});

test('begin-block hooks run family by family: tasks, then agent runs, then social and drive upload expiries', () => {
  assert.deepEqual(
    FAMILIES.filter((fam) => fam.beginBlock).map((fam) => fam.name),
    ['task', 'agent', 'social', 'storage'],
  );
  assert.equal(typeof RUNS.isOpen, 'function');
  assert.equal(typeof TASKS.isOpen, 'function');
});
