/** `ombra simulate`'s output: a progress line and a summary table per transaction type. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kindRows, progressLine, summaryTable } from '../../../cli/simReport.ts';

const counts = {
  sent: { TRANSFER: 40, TASK_SUBMIT: 10 },
  refused: { 'TRANSFER NONCE_TOO_LOW': 1, 'SOCIAL_FOLLOW_SET VALIDATION_FAILED': 2 },
};

test('rows join accepted and refused counts per type, busiest first', () => {
  assert.deepEqual(kindRows(counts), [
    { kind: 'TRANSFER', sent: 40, refused: 1, codes: 'NONCE_TOO_LOW 1' },
    { kind: 'TASK_SUBMIT', sent: 10, refused: 0, codes: '' },
    { kind: 'SOCIAL_FOLLOW_SET', sent: 0, refused: 2, codes: 'VALIDATION_FAILED 2' },
  ]);
});

test('a progress line with elapsed time, a rounded rate and the busiest types; a table with a total row', () => {
  assert.equal(
    progressLine(counts, 3000),
    '3.0 s: 50 txs accepted (16.7/s), 3 refused; TRANSFER 40/1 refused, TASK_SUBMIT 10, SOCIAL_FOLLOW_SET 0/2 refused',
  );
  const table = summaryTable(counts, 3000).split('\n');
  assert.equal(table[0], 'type               accepted  refused  refusal codes');
  assert.equal(table[1], 'TRANSFER                 40        1  NONCE_TOO_LOW 1');
  assert.equal(table.at(-1), 'total                    50        3  in 3.0 s');
});
