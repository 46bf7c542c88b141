import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationGate } from '../../../p2p/validationGate.ts';

test('never runs more than its cap at once; beyond, answers at once without running, and counts the drop', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), async (max, fails) => {
      const gate = new ValidationGate(max);
      let running = 0;
      let peak = 0;
      let ran = 0;
      const release: (() => void)[] = [];
      const results = fails.map((fail) =>
        gate
          .run(async () => {
            ran++;
            running++;
            peak = Math.max(peak, running);
            await new Promise<void>((r) => release.push(r));
            running--;
            if (fail) throw new Error('invalid');
            return 'done';
          }, 'dropped')
          .catch(() => 'failed'),
      );
      assert.equal(gate.inFlight, Math.min(max, fails.length));
      for (const r of release) r();
      const out = await Promise.all(results);
      assert.ok(peak <= max);
      assert.equal(ran, Math.min(max, fails.length));
      assert.equal(gate.dropped, fails.length - ran);
      assert.equal(out.filter((o) => o === 'dropped').length, gate.dropped);
      // Slots are freed whether the work succeeded or threw.
      assert.equal(gate.inFlight, 0);
      assert.equal(await gate.run(async () => 'again', 'dropped'), 'again');
    }),
    { numRuns: 100 },
  );
});

test('a cap below 1 is refused', () => {
  assert.throws(() => new ValidationGate(0), /positive integer/);
});
