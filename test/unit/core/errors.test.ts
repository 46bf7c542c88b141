/** Refusals and invariants (core/errors.ts): what each throws, and that a passing check narrows. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainError, errorChain, errorCode, errorMessage, present, refuse, refuseUnless } from '../../../core/errors.ts';

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

test('refuse and refuseUnless refuse with VALIDATION_FAILED and the message', () => {
  for (const e of [thrown(() => refuse('no such post')), thrown(() => refuseUnless(undefined, 'no such post'))]) {
    assert.ok(e instanceof ChainError);
    assert.equal((e as ChainError).code, 'VALIDATION_FAILED');
    assert.equal((e as ChainError).message, 'no such post');
  }
  assert.equal(thrown(() => refuseUnless(0, 'zero')) instanceof ChainError, true);
});

test('refuseUnless passes a value that holds, narrowed for what follows', () => {
  const upload: { owner: string } | undefined = { owner: 'a' };
  refuseUnless(upload, 'not started');
  assert.equal(upload.owner, 'a');
});

test('present hands back a value and throws a plain error (a bug, not a refusal) when it is missing', () => {
  assert.equal(present(0, 'zero'), 0);
  const e = thrown(() => present(undefined, 'task t1'));
  assert.ok(e instanceof Error);
  assert.ok(!(e instanceof ChainError));
  assert.match(errorMessage(e), /task t1 is missing/);
});

test('errorMessage, errorCode and errorChain read anything thrown without a cast', () => {
  const inner = Object.assign(new Error('disk gone'), { code: 'LEVEL_CORRUPTION' });
  const outer = new Error('read failed', { cause: inner });
  assert.equal(errorMessage(outer), 'read failed');
  assert.equal(errorMessage('a string'), 'a string');
  assert.equal(errorMessage({ message: 'an object' }), 'an object');
  assert.equal(errorCode(inner), 'LEVEL_CORRUPTION');
  assert.equal(errorCode(outer), undefined);
  assert.equal(errorCode({ code: 7 }), undefined);
  assert.deepEqual(errorChain(outer), [outer, inner]);
  assert.deepEqual(errorChain('plain'), ['plain']);
  assert.deepEqual(errorChain(undefined), []);
  // A cause chain that loops stops at the depth.
  const a: { cause?: unknown } = {};
  a.cause = a;
  assert.equal(errorChain(a, 4).length, 4);
});
