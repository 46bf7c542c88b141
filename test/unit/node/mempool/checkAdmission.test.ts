/**
 * The mempool's admission checks on their own (node/mempool/checkAdmission.ts): each rule, the
 * order they are made in (the first rule broken is the one reported), and what the pool counts of
 * an admitted transaction. The pool's own behaviour over a node is in
 * test/integration/node/mempool/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { txBytes } from '../../../../core/applyBlock.ts';
import type { SignedTx } from '../../../../core/tx/handler.ts';
import { canonicalTx, stateTx } from '../../../../core/txCodec.ts';
import { checkAdmission } from '../../../../node/mempool/checkAdmission.ts';
import { defaultMempoolOptions, type MempoolEntry, type MempoolOptions } from '../../../../node/mempool/mempoolOptions.ts';
import { ClaimIndex } from '../../../../node/mempool/uploadPolicy.ts';
import { DEV_KEYS, transfer } from '../../../helpers/coreSupport.ts';
import { exampleTx } from '../../../helpers/txExamples.ts';

const A = DEV_KEYS[1];
const B = DEV_KEYS[2];
const noClaims = new ClaimIndex();

function entry(tx: SignedTx, fee: bigint, upload = 0): MempoolEntry {
  return { tx, seq: 0, fee, bytes: txBytes([canonicalTx(tx)]), upload };
}

function check(tx: SignedTx, over: Partial<MempoolOptions> = {}, run: MempoolEntry[] = [], balance: bigint | undefined = 10n ** 9n) {
  return checkAdmission(tx, balance, run, noClaims, { ...defaultMempoolOptions, ...over });
}

/** Asserts `f` throws the policy error `code` with a message matching `message`. */
function refuses(f: () => unknown, code: string, message: RegExp) {
  assert.throws(f, (e: unknown) => e instanceof Error && 'code' in e && e.code === code && message.test(e.message));
}

test('an admitted transaction is counted by its fee and canonical bytes, replacing nothing', () => {
  const tx = transfer(A, { fee: '7', nonce: 0 });
  assert.deepEqual(check(tx), { fee: 7n, bytes: txBytes([canonicalTx(tx)]), upload: 0, at: -1 });
  // A chunk counts all its bytes against the upload budgets.
  const chunk = exampleTx('SOCIAL_BLOB_CHUNK', A);
  const counted = check(chunk);
  assert.equal(counted.upload, counted.bytes);
});

test('the per-type fee floor is checked first, then the balance (unknown passes, zero is refused)', () => {
  const cheap = transfer(A, { fee: '4', nonce: 0 });
  refuses(() => check(cheap, { minFee: { TRANSFER: 5n } }, [], 0n), 'VALIDATION_FAILED', /below this node's minimum of 5 for TRANSFER/);
  refuses(() => check(cheap, {}, [], 0n), 'INSUFFICIENT_BALANCE', /has no balance/);
  assert.equal(check(cheap, {}, [], undefined).at, -1);
});

test('a key another sender claims in a pending transaction is refused; the claimer may send more', () => {
  const claims = new ClaimIndex();
  claims.add(stateTx(exampleTx('SOCIAL_BLOB_INIT', A)));
  const theirs = exampleTx('SOCIAL_BLOB', B);
  refuses(
    () => checkAdmission(theirs, 1n, [], claims, defaultMempoolOptions),
    'VALIDATION_FAILED',
    /is claimed by a pending transaction of/,
  );
  assert.equal(checkAdmission(exampleTx('SOCIAL_BLOB', A, { nonce: 1 }), 1n, [], claims, defaultMempoolOptions).at, -1);
});

test('the byte floor is per 1,000 bytes rounded up, and chunks are exempt from it', () => {
  const free = transfer(A, { fee: '0', nonce: 0 });
  const bytes = txBytes([canonicalTx(free)]);
  assert.ok(bytes < 1000);
  // Fewer than 1,000 bytes at 1 a kilobyte still cost 1.
  refuses(
    () => check(free, { minFeePerKB: 1n }),
    'VALIDATION_FAILED',
    new RegExp(`minimum of 1 for ${bytes} bytes \\(1 per 1,000 bytes\\)`),
  );
  assert.equal(check(transfer(A, { fee: '1', nonce: 0 }), { minFeePerKB: 1n }).at, -1);
  refuses(() => check(transfer(A, { fee: '9', nonce: 0 }), { minFeePerKB: 100_000n }), 'VALIDATION_FAILED', /for \d+ bytes/);
  assert.equal(check(exampleTx('SOCIAL_BLOB_CHUNK', A, { fee: '1' }), { minFeePerKB: 100_000n }).at, -1);
});

test("a sender's pending chunk bytes are bounded, the chunk a replacement takes out not counted", () => {
  const first = exampleTx('SOCIAL_BLOB_CHUNK', A, { nonce: 0 });
  const pending = entry(first, 1000n, txBytes([canonicalTx(first)]));
  const next = exampleTx('SOCIAL_BLOB_CHUNK', A, { nonce: 1 });
  const max = pending.upload + txBytes([canonicalTx(next)]) - 1;
  refuses(() => check(next, { maxUploadBytesPerSender: max }, [pending]), 'MEMPOOL_FULL', /bytes of chunks pending/);
  const replacement = exampleTx('SOCIAL_BLOB_CHUNK', A, { nonce: 0, fee: '2000' });
  assert.equal(check(replacement, { maxUploadBytesPerSender: max }, [pending]).at, 0);
});

test('a replacement pays at least replaceBumpPercent more, and at least 1 more; it names the entry it replaces', () => {
  const run = [entry(transfer(A, { fee: '100', nonce: 0 }), 100n), entry(transfer(A, { fee: '0', nonce: 1 }), 0n)];
  refuses(() => check(transfer(A, { fee: '109', nonce: 0 }), {}, run), 'DUPLICATE_TX', /a replacement needs a fee of at least 110/);
  assert.equal(check(transfer(A, { fee: '110', nonce: 0 }), {}, run).at, 0);
  // The bump is rounded up: 10% of 101 is 11.
  const odd = [entry(transfer(A, { fee: '101', nonce: 0 }), 101n)];
  refuses(() => check(transfer(A, { fee: '111', nonce: 0 }), {}, odd), 'DUPLICATE_TX', /at least 112$/);
  refuses(() => check(transfer(A, { fee: '0', nonce: 1, amount: '2' }), {}, run), 'DUPLICATE_TX', /at least 1$/);
  assert.equal(check(transfer(A, { fee: '1', nonce: 1 }), {}, run).at, 1);
});

test('a full run refuses a new nonce but still takes a replacement', () => {
  const run = [entry(transfer(A, { fee: '1', nonce: 0 }), 1n), entry(transfer(A, { fee: '1', nonce: 1 }), 1n)];
  refuses(() => check(transfer(A, { fee: '1', nonce: 2 }), { maxPerSender: 2 }, run), 'MEMPOOL_FULL', /already has 2 pending transactions/);
  assert.equal(check(transfer(A, { fee: '2', nonce: 1 }), { maxPerSender: 2 }, run).at, 1);
});
