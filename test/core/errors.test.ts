/** Refusals and invariants (core/errors.ts): what each throws, and that a passing check narrows. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainError, present, refuse, refuseUnless } from '../../core/errors.ts';

const t = suite('errors');

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
};

t('refuse and refuseUnless refuse with VALIDATION_FAILED and the message', () => {
  for (const e of [thrown(() => refuse('no such post')), thrown(() => refuseUnless(undefined, 'no such post'))]) {
    assert.instance(e, ChainError);
    assert.is((e as ChainError).code, 'VALIDATION_FAILED');
    assert.is((e as ChainError).message, 'no such post');
  }
  assert.is(thrown(() => refuseUnless(0, 'zero')) instanceof ChainError, true);
});

t('refuseUnless passes a value that holds, narrowed for what follows', () => {
  const upload: { owner: string } | undefined = { owner: 'a' };
  refuseUnless(upload, 'not started');
  assert.is(upload.owner, 'a');
});

t('present hands back a value and throws a plain error (a bug, not a refusal) when it is missing', () => {
  assert.is(present(0, 'zero'), 0);
  const e = thrown(() => present(undefined, 'task t1'));
  assert.instance(e, Error);
  assert.not.instance(e, ChainError);
  assert.match((e as Error).message, /task t1 is missing/);
});

t.run();
