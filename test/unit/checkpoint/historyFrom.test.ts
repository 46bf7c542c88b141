/**
 * Waiting for history below a checkpoint (checkpoint/historyFrom.ts): asked again until a peer
 * answers, given up on with a reason once the wait is over, and not asked at all once the
 * verification stopped. No timed assertion: the wait is either zero or never reached.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { genesisState } from '../../../core/applyBlock.ts';
import type { Block } from '../../../core/block.ts';
import { HistoryUnavailable, historyFrom, type HistorySource } from '../../../checkpoint/historyFrom.ts';
import { silentLogger, type Logger } from '../../../node/log.ts';
import { DEV_GENESIS } from '../../helpers/coreSupport.ts';

const BLOCK = genesisState(DEV_GENESIS).block;

/** A source whose answers are `answers` in turn (an Error is thrown), recording what was asked. */
function source(answers: (Block[] | Error)[], over: Partial<HistorySource> = {}) {
  const asked: [number, number][] = [];
  const src: HistorySource = {
    fetchHistory: async (from, to) => {
      asked.push([from, to]);
      const a = answers.shift() ?? new Error('no more answers');
      if (a instanceof Error) throw a;
      return a;
    },
    historyWaitMs: 60_000,
    stopped: () => false,
    log: silentLogger,
    ...over,
  };
  return { src, asked };
}

test('a peer that answers gives the blocks as JSON texts', async () => {
  const { src, asked } = source([[BLOCK]]);
  assert.deepEqual(await historyFrom(1, 9, src), [JSON.stringify(BLOCK)]);
  assert.deepEqual(asked, [[1, 9]]);
});

test('no peer within the wait is HistoryUnavailable, naming the range, the wait and the last error, after one warning', async () => {
  const warnings: unknown[] = [];
  const log: Logger = { ...silentLogger, warn: (msg, fields) => warnings.push({ msg, fields }) };
  const { src } = source([new Error('no peer to fetch history from')], { historyWaitMs: 0, log });
  await assert.rejects(
    historyFrom(3, 7, src),
    (e: unknown) =>
      e instanceof HistoryUnavailable &&
      /no peer served blocks 3\.\.7 below the checkpoint within 0 ms \(no peer to fetch history from\); restart with a --peer/.test(
        e.message,
      ),
  );
  assert.deepEqual(warnings, [
    { msg: 'checkpoint verification waits for a peer with history', fields: { from: 3, error: 'no peer to fetch history from' } },
  ]);
});

test('an empty answer is no history: the reason says no peer had them', async () => {
  const { src } = source([[]], { historyWaitMs: 0 });
  await assert.rejects(historyFrom(1, 2, src), /\(no peer had them\)/);
});

test('a failed request is asked again until a peer answers', async () => {
  const { src, asked } = source([new Error('refused'), [BLOCK]]);
  assert.deepEqual(await historyFrom(5, 6, src), [JSON.stringify(BLOCK)]);
  assert.deepEqual(asked, [
    [5, 6],
    [5, 6],
  ]);
});

test('once the verification stopped nothing is asked and nothing is answered', async () => {
  const { src, asked } = source([[BLOCK]], { stopped: () => true });
  assert.deepEqual(await historyFrom(1, 2, src), []);
  assert.deepEqual(asked, []);
});
