/** Copies of seen gossip: an honest peer's one late copy is free, a replayer's copies cost its budget and then ban it. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { COPY_WINDOW_MS, MAX_COPIES, ReplayGuard } from '../../p2p/replayGuard.ts';
import { StaleGossipBudget } from '../../p2p/staleGossip.ts';

const t = suite('replay guard');

t('one message sent more than MAX_COPIES times within the window bans its sender; each peer and message counts on its own', () => {
  const guard = new ReplayGuard(new StaleGossipBudget(60));
  for (let i = 1; i <= MAX_COPIES; i++) assert.is(guard.duplicate('p', 'm', 0), null, `copy ${i}`);
  assert.match(guard.duplicate('p', 'm', 1) ?? '', `sent one gossip message ${MAX_COPIES + 1} times`);
  assert.is(guard.duplicate('q', 'm', 1), null, 'another peer');
  assert.is(guard.duplicate('p', 'n', 1), null, 'another message');
});

t('copies minutes apart (a message re-announced now and then) are counted afresh', () => {
  const guard = new ReplayGuard(new StaleGossipBudget(60));
  for (let i = 0; i < 3 * MAX_COPIES; i++) assert.is(guard.duplicate('p', 'm', i * COPY_WINDOW_MS), null, `copy ${i}`);
});

t('a copy crossing another peer is free; later copies spend the stale-gossip budget, and a spent budget bans', () => {
  const stale = new StaleGossipBudget(2);
  const guard = new ReplayGuard(stale);
  for (let i = 0; i < 10; i++) assert.is(guard.duplicate('honest', `m${i}`), null, 'first copies cost nothing');
  assert.is(stale.counts.allowed, 0);
  assert.is(guard.duplicate('r', 'a'), null);
  assert.is(guard.duplicate('r', 'a'), null, 'second copy: within the budget');
  assert.is(guard.duplicate('r', 'b'), null);
  assert.is(guard.duplicate('r', 'b'), null, 'within the budget');
  assert.match(guard.duplicate('r', 'a') ?? '', 'beyond its stale-gossip budget');
});

t.run();
