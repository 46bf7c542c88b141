/** TargetGate: the global and per-target bounds always hold, every job runs, and a stuck target never blocks another. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TargetGate, targetHost } from '../../../../services/alerts/targetGate.ts';

test('property: never more than max jobs at once nor maxPerTarget for one target; every job runs once', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.record({ target: fc.constantFrom('a', 'b', 'c', 'd'), ticks: fc.integer({ min: 0, max: 3 }) }), { maxLength: 40 }),
      async (max, maxPerTarget, jobs) => {
        let running = 0;
        const per = new Map<string, number>();
        const ran: number[] = [];
        let broken: string | null = null;
        const tick = () => new Promise<void>((r) => setImmediate(r));
        const gate = new TargetGate<number>({
          max,
          maxPerTarget,
          targetOf: (i) => jobs[i].target,
          run: async (i) => {
            const target = jobs[i].target;
            running++;
            per.set(target, (per.get(target) ?? 0) + 1);
            try {
              // Recorded, not thrown: the gate swallows a job's errors.
              if (running > max) broken ??= `${running} running, max ${max}`;
              if ((per.get(target) ?? 0) > maxPerTarget) broken ??= `${per.get(target)} for ${target}, max ${maxPerTarget}`;
              for (let k = 0; k < jobs[i].ticks; k++) await tick();
              // A failing job frees its slot too.
              if (i % 5 === 4) throw new Error('failed');
            } finally {
              running--;
              per.set(target, (per.get(target) ?? 1) - 1);
              ran.push(i);
            }
          },
        });
        jobs.forEach((_j, i) => gate.offer(i));
        while (gate.running + gate.queued > 0) await tick();
        assert.equal(broken, null);
        assert.deepEqual(
          [...ran].sort((a, b) => a - b),
          jobs.map((_j, i) => i),
        );
      },
    ),
    { numRuns: 150 },
  );
});

test('a target whose jobs never end holds its own slots only: another target is served', async () => {
  const served: string[] = [];
  const gate = new TargetGate<string>({
    max: 10,
    maxPerTarget: 2,
    targetOf: (j) => j.split('#')[0],
    run: (j) => (j.startsWith('hole') ? new Promise<void>(() => undefined) : Promise.resolve(void served.push(j))),
  });
  for (let i = 0; i < 50; i++) gate.offer(`hole#${i}`);
  gate.offer('ok#1');
  gate.offer('ok#2');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(served, ['ok#1', 'ok#2']);
  assert.equal(gate.running, 2, 'two stuck jobs for the hole');
  assert.equal(gate.queued, 48);
});

test('targets: a webhook by host and port, an e-mail by its domain', () => {
  assert.equal(targetHost('https://Hooks.Example.com:8443/a@b?x=1'), 'hooks.example.com:8443');
  assert.equal(targetHost('someone@Example.ORG'), 'example.org');
});
