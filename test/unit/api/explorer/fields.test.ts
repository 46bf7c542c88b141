/**
 * A transaction's fields for people (api/explorer/fields.ts), without a browser: every field of
 * every type core's registry knows has a view, by its name or by its kind (so a new type or field
 * needs no table kept by hand in the explorer); recipients and direction come from the registry's
 * address fields; a reward is summed exactly.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { directionOf, FIELD_VIEWS, KIND_VIEWS, recipientsOf, rewardTo, viewOf } from '../../../../api/explorer/fields.ts';
import { FIELD_KINDS, RECIPIENT_FIELDS, TX_TYPES } from '../../../../api/explorerTxTables.ts';
import { TX_HANDLERS } from '../../../../core/tx/registry.ts';

const A = `ox${'a'.repeat(40)}`;
const B = `ox${'b'.repeat(40)}`;
const C = `ox${'c'.repeat(40)}`;

test("the explorer's tables are the registry's: every type, every field with its kind, in canonical order", () => {
  assert.deepEqual(TX_TYPES, [...TX_HANDLERS.keys()]);
  for (const [type, h] of TX_HANDLERS) assert.deepEqual(Object.keys(FIELD_KINDS[type]), Object.keys(h.schema.fields), type);
  assert.deepEqual(RECIPIENT_FIELDS.TRANSFER, ['to']);
  assert.deepEqual(RECIPIENT_FIELDS.SOCIAL_LIKE_INTENT, ['author']);
  assert.deepEqual(RECIPIENT_FIELDS.SOCIAL_DM_SEND, ['recipient']);
  assert.deepEqual(RECIPIENT_FIELDS.ART_MINT, ['owner']);
  assert.deepEqual(RECIPIENT_FIELDS.BURN, []);
});

test('every field of every transaction type has a view on the transaction page, by its name or its kind', () => {
  const without = TX_TYPES.flatMap((type) =>
    Object.keys(FIELD_KINDS[type]).flatMap((field) => (viewOf(field, { type, from: A }) ? [] : [`${type}.${field}`])),
  );
  assert.deepEqual(without, []);
  // A kind the registry uses and the explorer has no view for would fall back to JSON text: each is named.
  const kinds = new Set(Object.values(FIELD_KINDS).flatMap((k) => Object.values(k)));
  for (const kind of kinds)
    if (!KIND_VIEWS[kind]) {
      const fields = TX_TYPES.flatMap((type) =>
        Object.entries(FIELD_KINDS[type])
          .filter(([, k]) => k === kind)
          .map(([f]) => f),
      );
      assert.ok(
        fields.every((f) => FIELD_VIEWS[f]),
        `kind ${kind}: ${fields.join(', ')} need a view by name`,
      );
    }
  // A name says more than a kind: a storage transfer's bytes (an amount-kind integer) are bytes, not OMBRA.
  assert.equal(viewOf('bytes', { type: 'STORAGE_TRANSFER', from: A }), FIELD_VIEWS.bytes);
  assert.equal(viewOf('to', { type: 'TRANSFER', from: A }), KIND_VIEWS.address);
  assert.equal(viewOf('nonsense', { type: 'TRANSFER', from: A }), undefined);
});

test("recipients come from the registry's address fields; direction from them and the sender", () => {
  const transfer = { type: 'TRANSFER', from: A, to: B, amount: '5' };
  assert.deepEqual(recipientsOf(transfer), [B]);
  assert.equal(directionOf(transfer, A), 'out');
  assert.equal(directionOf(transfer, B), 'in');
  assert.equal(directionOf({ ...transfer, to: A }, A), 'self');
  assert.deepEqual(recipientsOf({ type: 'ART_MINT', from: A, owner: C }), [C]);
  assert.deepEqual(recipientsOf({ type: 'SOCIAL_FOLLOW_SET', from: A, targetAddress: B }), [B]);
  assert.deepEqual(recipientsOf({ type: 'BURN', from: A, amount: '1' }), []);
  // A like's author is known only when the page looked the post up.
  assert.deepEqual(recipientsOf({ type: 'SOCIAL_REACTION_SET', from: A, targetPostId: 'p1' }), []);
  assert.deepEqual(recipientsOf({ type: 'SOCIAL_REACTION_SET', from: A, targetPostId: 'p1', postAuthor: C }), [C]);
  const reward = {
    type: 'TASK_REWARD',
    from: A,
    rewards: [
      { address: B, amount: '9007199254740993', reason: 'best' },
      { address: C, amount: '7', reason: 'x' },
    ],
  };
  assert.deepEqual(recipientsOf(reward), [B, C]);
  assert.equal(directionOf(reward, C), 'in');
  assert.equal(rewardTo(reward), 9007199254741000n, 'summed as big integers, past 2^53 exactly');
  assert.equal(rewardTo(reward, C), 7n);
  assert.equal(rewardTo(reward, A), null);
  assert.equal(rewardTo({ type: 'TASK_REWARD', from: A, rewards: 'junk' }), null);
});
