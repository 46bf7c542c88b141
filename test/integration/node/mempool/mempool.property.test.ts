/**
 * The mempool under random admissions, replacements and evictions: it stays within its caps,
 * never leaves a nonce gap in a sender's run, evicts only strictly lower fees, replaces only for
 * the documented bump, and builds blocks in the same order as a plain scan of every run.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChainError } from '../../../../core/errors.ts';
import type { SignedTx } from '../../../../core/tx/handler.ts';
import { Mempool } from '../../../../node/mempool/mempool.ts';
import { MempoolPolicyError, type MempoolOptions } from '../../../../node/mempool/mempoolOptions.ts';
import { DEV_KEYS } from '../../../helpers/testChain.ts';

const SENDERS = DEV_KEYS.slice(0, 6).map((k) => k.address);
let serial = 0;

/** A TRANSFER-shaped pending transaction (the pool trusts validateTx for signatures). */
function tx(from: number, nonce: number, fee: bigint, extraBytes = 0): SignedTx {
  return {
    type: 'TRANSFER',
    from: SENDERS[from],
    to: SENDERS[(from + 1) % SENDERS.length],
    amount: '1',
    fee: String(fee),
    nonce,
    timestamp: 1,
    hash: `h${serial++}`.padEnd(64, '0'),
    // Only the size matters here: canonical JSON counts the signature's length.
    signature: 's'.repeat(1 + extraBytes),
    publicKey: 'p',
  } as unknown as SignedTx;
}

/** The order blocks used before the heap: repeatedly the best run head over every run. */
function reference(runs: SignedTx[][], arrival: Map<string, number>): SignedTx[] {
  const heads = runs.map((run) => ({ run, i: 0 }));
  const out: SignedTx[] = [];
  const key = (x: SignedTx) => [BigInt(x.fee as string), arrival.get(x.hash)!] as const;
  for (;;) {
    let best = -1;
    for (let k = 0; k < heads.length; k++) {
      const h = heads[k];
      if (h.i >= h.run.length) continue;
      if (best < 0) best = k;
      else {
        const [fa, sa] = key(h.run[h.i]);
        const [fb, sb] = key(heads[best].run[heads[best].i]);
        if (fa > fb || (fa === fb && sa < sb)) best = k;
      }
    }
    if (best < 0) return out;
    out.push(heads[best].run[heads[best].i++]);
  }
}

const op = fc.record({
  from: fc.integer({ min: 0, max: SENDERS.length - 1 }),
  fee: fc.bigInt({ min: 0n, max: 200n }),
  replace: fc.boolean(),
  at: fc.nat(),
  extra: fc.integer({ min: 0, max: 200 }),
});
const limits = fc.record({
  maxSize: fc.integer({ min: 1, max: 12 }),
  maxPerSender: fc.integer({ min: 1, max: 6 }),
  maxBytes: fc.integer({ min: 400, max: 3000 }),
});

test('random traffic keeps the caps, gapless runs, fee-only eviction, the block order and the per-type arrival index', () => {
  fc.assert(
    fc.property(limits, fc.array(op, { maxLength: 60 }), (lim, ops) => {
      const pool = new Mempool({ ...lim, minFee: { TRANSFER: 3n } } satisfies Partial<MempoolOptions>);
      const arrival = new Map<string, number>();
      let clock = 0;
      for (const o of ops) {
        const run = pool.pending(SENDERS[o.from]).count;
        const replacing = o.replace && run > 0;
        const nonce = replacing ? o.at % run : run;
        const before = pool.list();
        const old = before.find((x) => x.from === SENDERS[o.from] && x.nonce === nonce);
        const next = tx(o.from, nonce, o.fee, o.extra);
        let left: SignedTx[];
        try {
          left = pool.add(next);
        } catch (e) {
          assert.ok(e instanceof MempoolPolicyError, String(e));
          assert.deepEqual(pool.list(), before, 'a refusal changes nothing');
          if (o.fee < 3n) assert.equal((e as ChainError).code, 'VALIDATION_FAILED');
          continue;
        }
        arrival.set(next.hash, clock++);
        assert.ok(o.fee >= 3n, 'the floor holds');
        if (old) {
          const oldFee = BigInt(old.fee as string);
          const bump = (oldFee * 10n + 99n) / 100n;
          assert.ok(o.fee >= oldFee + (bump > 1n ? bump : 1n), 'a replacement pays the bump');
          assert.equal(left[0], old);
        }
        for (const gone of left.slice(old ? 1 : 0)) {
          assert.ok(BigInt(gone.fee as string) < o.fee, 'only strictly lower fees are evicted');
          assert.notEqual(gone.from, next.from, 'never the sender of the newcomer');
          assert.ok(!pool.has(gone.hash));
        }
        assert.ok(pool.has(next.hash));
      }
      const all = pool.list();
      // The per-type index follows every add, replacement and eviction.
      assert.deepEqual(pool.ofType('TRANSFER', all.length + 1, 0), { total: all.length, txs: all });
      assert.deepEqual(pool.ofType('TRANSFER', 2, 1).txs, all.slice(1, 3));
      assert.deepEqual(pool.ofType('BURN', 5, 0), { total: 0, txs: [] });
      assert.ok(all.length <= lim.maxSize);
      assert.ok(pool.bytes <= lim.maxBytes);
      const runs = SENDERS.map((s) => all.filter((x) => x.from === s).sort((a, b) => a.nonce - b.nonce));
      for (const run of runs) {
        assert.ok(run.length <= lim.maxPerSender);
        run.forEach((x, i) => assert.equal(x.nonce, i, 'no nonce gap'));
      }
      const expected = reference(
        runs.filter((r) => r.length),
        arrival,
      );
      assert.deepEqual(pool.candidates(), expected);
      const k = Math.floor(expected.length / 2);
      assert.deepEqual(pool.candidates(k), expected.slice(0, k));
    }),
    { numRuns: 300 },
  );
});

test('a full pool of zero-fee spam makes room for a paying transaction by evicting run tails', () => {
  const pool = new Mempool({ maxSize: 6, maxPerSender: 6 });
  const spam = [0, 1, 2, 3, 4, 5].map((n) => tx(0, n, 0n));
  for (const s of spam) pool.add(s);
  assert.throws(
    () => pool.add(tx(1, 0, 0n)),
    (e: unknown) => e instanceof ChainError && e.code === 'MEMPOOL_FULL',
  );
  const paying = tx(1, 0, 1000n);
  assert.deepEqual(pool.add(paying), [spam[5]], 'the tail of the spammer’s run leaves');
  assert.equal(pool.candidates(1)[0], paying);
});

test('a replacement below the bump is refused and an equal-fee newcomer evicts nothing', () => {
  const pool = new Mempool({ maxSize: 2 });
  const first = tx(0, 0, 100n);
  pool.add(first);
  assert.throws(
    () => pool.add(tx(0, 0, 109n)),
    (e: unknown) => e instanceof ChainError && e.code === 'DUPLICATE_TX',
  );
  const bumped = tx(0, 0, 110n);
  assert.deepEqual(pool.add(bumped), [first]);
  pool.add(tx(2, 0, 50n));
  assert.throws(
    () => pool.add(tx(1, 0, 50n)),
    (e: unknown) => e instanceof ChainError && e.code === 'MEMPOOL_FULL',
  );
  assert.equal(pool.size, 2);
});

test('a transaction larger than the byte cap is refused', () => {
  const pool = new Mempool({ maxBytes: 300 });
  assert.throws(
    () => pool.add(tx(0, 0, 10n, 400)),
    (e: unknown) => e instanceof ChainError && e.code === 'MEMPOOL_FULL',
  );
  assert.equal(pool.bytes, 0);
});
