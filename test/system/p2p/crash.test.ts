import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testnetGenesis } from '../../../cli/testnet.ts';
import { DEV_KEYS, tempDir } from '../../helpers/testChain.ts';
import { startNodeProcess, waitFor, type NodeProcess } from '../../helpers/nodeProcess.ts';

const json = async (url: string): Promise<any> => (await fetch(url)).json();

test('after kill -9 of one of three nodes the others keep producing, and on restart it catches up and agrees', async () => {
  const tmp = tempDir('ombra-crash-net-');
  const genesisFile = join(tmp.dir, 'genesis.json');
  writeFileSync(genesisFile, JSON.stringify(testnetGenesis(3, 400, 'ombra-crash-net', Date.now())));
  const args = (i: number, peers: string[]) => {
    writeFileSync(join(tmp.dir, `key${i}.json`), JSON.stringify({ privateKey: DEV_KEYS[i].privateKey }));
    return [
      '--genesis',
      genesisFile,
      '--key-file',
      join(tmp.dir, `key${i}.json`),
      '--data-dir',
      join(tmp.dir, `node${i}`),
      ...peers.flatMap((p) => ['--peer', p]),
      '--log-level',
      'info',
      // The test polls heights many times a second; a node's anonymous quota (60 a minute) would refuse it.
      '--rate-limits',
      'off',
    ];
  };
  const procs: NodeProcess[] = [];
  try {
    procs[0] = await startNodeProcess(args(0, []));
    const addr0 = (await json(`${procs[0].url}/api/chain/network`)).addresses[0] as string;
    procs[1] = await startNodeProcess(args(1, [addr0]));
    procs[2] = await startNodeProcess(args(2, [addr0]));
    // An answer without a height (an error) fails the test at once instead of reading as "not yet".
    const height = (i: number) =>
      json(`${procs[i].url}/api/chain/height`).then((h) => {
        if (typeof h.height !== 'number') throw new Error(`node${i} answered ${JSON.stringify(h)}`);
        return h.height as number;
      });
    await waitFor(async () => ((await height(2)) >= 4 ? true : undefined), 20_000);
    procs[2].child.kill('SIGKILL');
    await procs[2].exited;
    const atKill = await height(0);
    // Two of three authorities still fill their slots.
    await waitFor(async () => ((await height(0)) >= atKill + 4 && (await height(1)) >= atKill + 4 ? true : undefined), 20_000);
    procs[2] = await startNodeProcess(args(2, [addr0]));
    await waitFor(async () => ((await height(2)) >= (await height(0)) - 1 && (await height(2)) > atKill + 4 ? true : undefined), 20_000);
    // The tip may briefly differ while a block is in flight (a slot's block reaches one node first,
    // or a late block is replaced by fork choice): agreement is what all three converge to.
    let seen: string[] = [];
    const agreed = await waitFor(async () => {
      const h = Math.min(await height(0), await height(1), await height(2));
      seen = await Promise.all([0, 1, 2].map((i) => json(`${procs[i].url}/api/chain/block/${h}`).then((b) => b.hash)));
      return new Set(seen).size === 1 ? h : undefined;
    }, 20_000).catch(() => undefined);
    assert.ok(agreed !== undefined && agreed > atKill + 4, `all three agree past height ${atKill + 4}: ${seen.join(', ')}`);
  } finally {
    for (const p of procs) p?.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p?.exited));
    tmp.cleanup();
  }
});
