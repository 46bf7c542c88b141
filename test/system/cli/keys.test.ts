/** `ombra keys create`: operator-issued keys into a stopped node's data dir. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ChainStore } from '../../../node/store/chainStore.ts';
import { wellFormedKey } from '../../../services/apiKeyFormat.ts';
import { ApiKeyStore } from '../../../services/apiKeys.ts';
import { runCli } from '../../helpers/cliRun.ts';
import { openTestChain } from '../../helpers/testChain.ts';

test('issues a tier-2 key into a stopped data dir, prints it once, and refuses while a node holds the dir', async () => {
  const chain = await openTestChain();
  const dataDir = chain.dir;
  try {
    const locked = await runCli(['keys', 'create', '--data-dir', dataDir, '--tier', '2']);
    assert.equal(locked.code, 1);
    assert.match(locked.stderr, /in use by a running node; stop it first/);
    await chain.close();
    const made = await runCli(['keys', 'create', '--data-dir', dataDir, '--tier', '2', '--label', 'partner', '--json']);
    assert.equal(made.code, 0, made.stderr);
    const out = JSON.parse(made.stdout);
    assert.deepEqual({ tier: out.tier, label: out.label }, { tier: 2, label: 'partner' });
    assert.ok(wellFormedKey(out.key));
    const store = await ChainStore.open(join(dataDir, 'db'));
    try {
      const keys = await new ApiKeyStore(store).load();
      const check = keys.check(out.key);
      assert.ok(check.ok && check.record.tier === 2 && check.record.createdBy === 'operator');
    } finally {
      await store.close();
    }
    const plain = await runCli(['keys', 'create', '--data-dir', dataDir]);
    assert.equal(plain.code, 0);
    assert.match(plain.stdout.trim(), /^ombra_live_[0-9a-f]{40}_[0-9a-f]{8}$/);
    assert.match(plain.stderr, /shown only this once/);
    const bad = await runCli(['keys', 'create', '--data-dir', dataDir, '--tier', '3']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--tier must be an integer 1..2/);
    const none = await runCli(['keys', 'create', '--data-dir', join(dataDir, 'nothing')]);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /no chain in/);
  } finally {
    await chain.destroy().catch(() => undefined);
  }
});
