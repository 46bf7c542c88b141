import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signTx } from '../../../core/txCodec.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';
import { startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';

async function json(url: string, init?: RequestInit): Promise<any> {
  const r = await fetch(url, init);
  return r.json();
}

test('kill -9 loses no acknowledged block and the restarted node resumes the chain', async () => {
  const tmp = tempDir();
  const args = ['--dev', '--data-dir', tmp.dir, '--block-time-ms', '200', '--log-level', 'info'];
  let p = await startNodeProcess(args);
  try {
    const from = DEV_KEYS[5];
    const hashes: string[] = [];
    for (let nonce = 0; nonce < 3; nonce++) {
      const tx = signTx(
        { type: 'TRANSFER', from: from.address, to: DEV_KEYS[6].address, amount: '1234', fee: '10', nonce, timestamp: Date.now() },
        from,
      );
      const res = await json(`${p.url}/api/chain/tx`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(tx),
      });
      assert.deepEqual(res, { ok: true, hash: tx.hash });
      hashes.push(tx.hash);
    }
    const mined = await waitFor(async () => {
      const r = await json(`${p.url}/api/chain/tx/${hashes[2]}`);
      return r.status === 'confirmed' ? r : undefined;
    });
    const acknowledged = (await json(`${p.url}/api/chain/height`)).height as number;
    assert.ok(acknowledged >= mined.blockIndex);
    p.child.kill('SIGKILL');
    assert.equal(await p.exited, 'SIGKILL');

    p = await startNodeProcess(args);
    const height = (await json(`${p.url}/api/chain/height`)).height as number;
    assert.ok(height >= acknowledged, `height ${height} < acknowledged ${acknowledged}`);
    for (const h of hashes) assert.equal((await json(`${p.url}/api/chain/tx/${h}`)).status, 'confirmed');
    const account = await json(`${p.url}/api/chain/account/${from.address}`);
    assert.equal(account.nonce, 3);
    assert.equal(account.balance, String(1_000_000_000_000n - 3n * 1244n));
    // Still producing after the crash.
    await waitFor(async () => ((await json(`${p.url}/api/chain/height`)).height > height ? true : undefined));
    p.child.kill('SIGTERM');
    assert.equal(await p.exited, 0);
  } finally {
    p.child.kill('SIGKILL');
    tmp.cleanup();
  }
});
