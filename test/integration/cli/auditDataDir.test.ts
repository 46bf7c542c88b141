/**
 * `ombra audit --data-dir DIR`: a stopped node's own log through the snapshot audit's pipeline
 * and consensus code: OK on an intact log, the first faulty height on a tampered, missing or
 * mis-pointed one.
 */
import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { auditCommand } from '../../../cli/auditCommand.ts';
import { auditStore } from '../../../node/verification/audit.ts';
import { UsageError } from '../../../cli/args.ts';
import type { Block } from '../../../core/block.ts';
import { heightKey } from '../../../core/encoding.ts';
import { ChainStore } from '../../../node/store/chainStore.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../helpers/testChain.ts';

/** A stopped chain of 6 blocks with transfers; `edit` then changes its database directly. */
async function audited(edit?: (s: ChainStore) => Promise<unknown>) {
  const tmp = tempDir();
  const c = await openTestChain({ dir: tmp.dir });
  for (let i = 1; i <= 6; i++) {
    await c.node.submitTx(c.transfer(1, DEV_KEYS[2].address, BigInt(i)));
    await c.produce(1);
  }
  const head = c.node.head().hash;
  await c.close();
  const edited = await ChainStore.open(`${tmp.dir}/db`, { createIfMissing: false });
  await edit?.(edited);
  await edited.close();
  const store = await ChainStore.open(`${tmp.dir}/db`, { createIfMissing: false });
  try {
    return { result: await auditStore(store), head, dir: tmp.dir, cleanup: tmp.cleanup };
  } finally {
    await store.close();
  }
}

test('an intact log audits OK with its blocks, transactions and head, and the command exits 0', async () => {
  const a = await audited();
  try {
    assert.deepEqual(a.result, { ok: true, blocks: 7, transactions: 6, head: a.head });
    assert.equal(await auditCommand(['--data-dir', a.dir, '--workers', '2']), 0);
  } finally {
    a.cleanup();
  }
});

test('a tampered transaction, a deleted block and a wrong head pointer are faults at their height', async () => {
  const cases: [string, (s: ChainStore) => Promise<unknown>, number, RegExp][] = [
    [
      'tampered amount',
      async (s) => {
        const b = (await s.blocks.get(heightKey(4))) as Block;
        (b.transactions[0] as unknown as { amount: string }).amount = '7777';
        await s.blocks.put(heightKey(4), b);
      },
      4,
      /./,
    ],
    ['deleted block', (s) => s.blocks.del(heightKey(3)), 3, /./],
    [
      'head pointer behind the log',
      async (s) => s.meta.put('head', { index: 2, hash: ((await s.blocks.get(heightKey(2))) as Block).hash }),
      3,
      /head pointer says block 2/,
    ],
  ];
  for (const [name, edit, height, why] of cases) {
    const a = await audited(edit);
    try {
      assert.equal(a.result.ok, false, name);
      if (!a.result.ok) {
        assert.equal(a.result.height, height, name);
        assert.match(a.result.message, literal(why), name);
      }
      assert.equal(await auditCommand(['--data-dir', a.dir, '--workers', '0']), 1, name);
    } finally {
      a.cleanup();
    }
  }
});

test('FILE and --data-dir together, or neither, are usage errors', async () => {
  await auditCommand(['x.ndjson', '--data-dir', '/tmp/nope']).then(
    () => assert.fail(),
    (e: unknown) => assert.ok(e instanceof UsageError),
  );
  await auditCommand([]).then(
    () => assert.fail(),
    (e: unknown) => assert.ok(e instanceof UsageError),
  );
});
