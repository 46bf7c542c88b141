/** Copies of seen gossip: an honest peer's one late copy is free, a replayer's copies cost its budget and then ban it. */
import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { COPY_WINDOW_MS, MAX_COPIES, ReplayGuard } from '../../../p2p/replayGuard.ts';
import { StaleGossipBudget } from '../../../p2p/staleGossip.ts';

test('one message sent more than MAX_COPIES times within the window bans its sender; each peer and message counts on its own', () => {
  const guard = new ReplayGuard(new StaleGossipBudget(60));
  for (let i = 1; i <= MAX_COPIES; i++) assert.equal(guard.duplicate('p', 'm', 0), null, `copy ${i}`);
  assert.match(guard.duplicate('p', 'm', 1) ?? '', literal(`sent one gossip message ${MAX_COPIES + 1} times`));
  assert.equal(guard.duplicate('q', 'm', 1), null, 'another peer');
  assert.equal(guard.duplicate('p', 'n', 1), null, 'another message');
});

test('copies minutes apart (a message re-announced now and then) are counted afresh', () => {
  const guard = new ReplayGuard(new StaleGossipBudget(60));
  for (let i = 0; i < 3 * MAX_COPIES; i++) assert.equal(guard.duplicate('p', 'm', i * COPY_WINDOW_MS), null, `copy ${i}`);
});

test('a copy crossing another peer is free; later copies spend the stale-gossip budget, and a spent budget bans', () => {
  const stale = new StaleGossipBudget(2);
  const guard = new ReplayGuard(stale);
  for (let i = 0; i < 10; i++) assert.equal(guard.duplicate('honest', `m${i}`), null, 'first copies cost nothing');
  assert.equal(stale.counts.allowed, 0);
  assert.equal(guard.duplicate('r', 'a'), null);
  assert.equal(guard.duplicate('r', 'a'), null, 'second copy: within the budget');
  assert.equal(guard.duplicate('r', 'b'), null);
  assert.equal(guard.duplicate('r', 'b'), null, 'within the budget');
  assert.match(guard.duplicate('r', 'a') ?? '', /beyond its stale-gossip budget/);
});

test("a burst of copies read right after the node's own stall bans nobody; the same burst otherwise bans", () => {
  // What an authority back from a 5 s pause reads at once: a follower's re-announced transactions, each several times.
  const burst = (guard: ReplayGuard) => {
    const why: string[] = [];
    for (let m = 0; m < 20; m++) for (let copy = 0; copy < 6; copy++) why.push(guard.duplicate('follower', `tx${m}`, 1_000) ?? '');
    return why.filter(Boolean);
  };
  assert.ok(burst(new ReplayGuard(new StaleGossipBudget(10))).length > 0, 'read as replays, the burst bans');
  let stalled = true;
  const stale = new StaleGossipBudget(10, () => stalled);
  const guard = new ReplayGuard(stale);
  assert.deepEqual(burst(guard), [], 'read through the stall, nothing is held against the follower');
  assert.equal(stale.allow('follower'), true, 'stale gossip too');
  assert.equal(stale.spent('follower'), false);
  assert.equal(stale.counts.forgiven, 1);
  // Once the grace is over, copies count from zero again.
  stalled = false;
  for (let i = 1; i <= MAX_COPIES; i++) assert.equal(guard.duplicate('follower', 'later', 2_000), null, `copy ${i}`);
  assert.match(guard.duplicate('follower', 'later', 2_001) ?? '', /sent one gossip message/);
});
