/**
 * Fee-0 16 KB posts from keys with no balance against a real `ombra start --dev` process (issue
 * 34 row 7; run alone: `npx node test/bench/freePosts.ts [seconds] [extra start flags...]`): 40
 * fresh keys each post in a loop for the given time (default 60 s). Prints posts accepted,
 * refusals by code and the data dir's growth. With `FUNDED=1` the keys are funded first (1 micro
 * each), to show what the per-byte floor (`--min-fee-per-kb`) does to the same flood.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';
import { DEV_MNEMONIC, keyPairFromMnemonic } from '../../core/keys.ts';
import { signTx } from '../../core/txCodec.ts';
import { startNodeProcess, waitFor } from '../helpers/nodeProcess.ts';

const seconds = Number(process.argv[2] ?? 60);
const extra = process.argv.slice(3);
const KEYS = 40;
// Random text: LevelDB compresses what repeats, and an attacker need not repeat.
const body = () => randomBytes(12_288).toString('base64');

const du = (dir: string) => Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
const tmp = tempDir('ombra-freeposts-');
const dataDir = join(tmp.dir, 'data');
const node = await startNodeProcess(['--dev', '--data-dir', dataDir, '--rate-limits', 'off', ...extra], {}, 60_000);
const post = async (tx: unknown) => {
  const res = await fetch(`${node.url}/api/chain/tx`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(tx),
  });
  return { status: res.status, body: (await res.json()) as { code?: string } };
};
try {
  const keys = Array.from({ length: KEYS }, (_, i) => keyPairFromMnemonic(DEV_MNEMONIC, 5000 + i));
  if (process.env.FUNDED === '1') {
    for (let i = 0; i < KEYS; i++) {
      const r = await post(
        signTx(
          { type: 'TRANSFER', from: DEV_KEYS[1].address, to: keys[i].address, amount: '1', fee: '1000', nonce: i, timestamp: Date.now() },
          DEV_KEYS[1],
        ),
      );
      if (r.status !== 200) throw new Error(`funding: ${JSON.stringify(r.body)}`);
    }
    await waitFor(
      async () => {
        const r = (await (await fetch(`${node.url}/api/wallet/balance/${keys[KEYS - 1].address}`)).json()) as { balance: string };
        return r.balance === '1' ? true : undefined;
      },
      60_000,
      200,
    );
  }
  const before = du(dataDir);
  const end = Date.now() + seconds * 1000;
  let accepted = 0;
  const refused: Record<string, number> = {};
  await Promise.all(
    keys.map(async (key, k) => {
      let nonce = 0;
      while (Date.now() < end) {
        const tx = signTx(
          {
            type: 'SOCIAL_POST_CREATE',
            from: key.address,
            postId: `p${k}n${nonce}`,
            body: body(),
            blobIds: [],
            fee: '0',
            nonce,
            timestamp: Date.now(),
          },
          key,
        );
        const r = await post(tx);
        if (r.status === 200) {
          accepted++;
          nonce++;
        } else {
          const code = r.body.code ?? String(r.status);
          refused[code] = (refused[code] ?? 0) + 1;
          // A full run waits for a block; a refusal by policy stays a refusal.
          await new Promise((res) => setTimeout(res, 100));
        }
      }
    }),
  );
  // Let the last block land before the data dir is measured.
  await new Promise((res) => setTimeout(res, 3000));
  const grown = du(dataDir) - before;
  console.log(
    JSON.stringify({
      seconds,
      keys: KEYS,
      funded: process.env.FUNDED === '1',
      extra,
      accepted,
      refused,
      dataDirGrowthMB: Math.round(grown / 1e5) / 10,
    }),
  );
} finally {
  node.child.kill('SIGTERM');
  await node.exited;
  tmp.cleanup();
}
