/** `stateTx`: a transaction's addresses in any case, as the state reads them (lower-cased), for every type. */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SignedTx } from '../../../core/tx/handler.ts';
import { TX_HANDLERS, TX_TYPES } from '../../../core/tx/registry.ts';
import { checkTxHash, checkTxShape, signTx, stateTx } from '../../../core/txCodec.ts';
import { DEV_KEYS } from '../../helpers/coreSupport.ts';
import { exampleFields } from '../../helpers/txExamples.ts';

/** `a` with the characters `upper` picks upper-cased. */
const upcase = (a: string, upper: (i: number) => boolean): string => [...a].map((ch, i) => (upper(i) ? ch.toUpperCase() : ch)).join('');

/** The transaction's address fields (TASK_REWARD's reward addresses included) recased by `upper`. */
function recase(tx: Record<string, unknown>, upper: (i: number) => boolean): Record<string, unknown> {
  const out = { ...tx };
  for (const [name, spec] of Object.entries(TX_HANDLERS.get(tx.type as string)!.schema.fields)) {
    if (spec.kind === 'address') out[name] = upcase(tx[name] as string, upper);
    if (name === 'rewards') out[name] = (tx[name] as { address: string }[]).map((r) => ({ ...r, address: upcase(r.address, upper) }));
  }
  return out;
}

/** An example of `type` whose lists hold an item (TASK_REWARD's rewards name an address). */
function example(type: string): Record<string, unknown> {
  const f = exampleFields(type, DEV_KEYS[0]);
  return type === 'TASK_REWARD' ? { ...f, rewards: [{ address: DEV_KEYS[2].address, amount: '5', reason: 'miner' }] } : f;
}

test('every type: addresses in any case pass shape and hash checks, and read back as the lower-case transaction', () => {
  fc.assert(
    fc.property(fc.constantFrom(...TX_TYPES), fc.array(fc.boolean(), { minLength: 42, maxLength: 42 }), (type, mask) => {
      const lower = example(type);
      const sent = signTx(recase(lower, (i) => mask[i]) as { type: string; from: string }, DEV_KEYS[0]) as SignedTx;
      checkTxShape(sent);
      checkTxHash(sent);
      const read = stateTx(sent);
      const canonical = signTx(lower as { type: string; from: string }, DEV_KEYS[0]) as SignedTx;
      const unsigned = ({ hash: _h, signature: _s, ...rest }: SignedTx) => rest;
      assert.deepEqual(unsigned(read), unsigned(canonical), 'every address lower-cased, nothing else changed');
      assert.equal(read.hash, sent.hash, 'the hash and signature are those of the bytes as sent');
      assert.equal(read.signature, sent.signature);
      assert.equal(stateTx(canonical), canonical, 'a lower-case transaction is its own state form (no copy)');
    }),
    { numRuns: 300 },
  );
});
