/** Refusals and invariants (core/errors.ts): what each throws, and that a passing check narrows. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainError, present, refuse, refuseUnless } from '../../../core/errors.ts';

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
  assert.match((e as Error).message, /task t1 is missing/);
});
