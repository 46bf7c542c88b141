import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseGenesis } from '../../core/genesis.ts';
import { sumBalances } from '../../core/state.ts';
import { TX_HANDLERS } from '../../core/tx/registry.ts';
import { devGenesis } from '../../cli/genesisFile.ts';
import { launch } from '../../cli/launch.ts';
import { SimClient } from '../../cli/simClient.ts';
import { Simulator } from '../../cli/simulator.ts';
import { OmbraNode } from '../../node/node.ts';
import { DEV_KEYS, tempDir } from '../helpers/testChain.ts';

const t = suite('ombra simulate');
const FIXTURE = new URL('../../fixtures/simulated-chain.ndjson', import.meta.url);
/** What brings the fixture up to date (cli/fixtures.ts). */
const RECORD = 're-record it with `npm run fixtures`';

t('the recorded simulated chain imports block by block and its read models equal a full rebuild', async () => {
  const lines = readFileSync(FIXTURE, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const genesis = parseGenesis(lines[0].genesis);
  const blocks = lines.slice(1);
  const types = new Set(blocks.flatMap((b: { transactions: { type: string }[] }) => b.transactions.map((x) => x.type)));
  const executed = [...TX_HANDLERS.values()]
    .filter((h) => h.schema.type !== 'BURN' && h.schema.type !== 'STORAGE_TRANSFER')
    .map((h) => h.schema.type);
  assert.equal(
    executed.filter((x) => !types.has(x)),
    [],
    `the fixture exercises every type the simulator sends: a type is missing, so the fixture is stale; ${RECORD}`,
  );
  const tmp = tempDir();
  const node = await OmbraNode.open({ dbDir: join(tmp.dir, 'db'), genesis });
  try {
    assert.is(node.head().hash, blocks[0].hash);
    for (const b of blocks.slice(1))
      await node.importBlock(b).catch((e: Error) => {
        throw new Error(`block ${b.index} of the fixture no longer imports (${e.message}): the fixture is stale; ${RECORD}`);
      });
    assert.is(node.head().hash, blocks.at(-1).hash);
    const s = node.state();
    assert.is(sumBalances(s) + s.supply.escrow + s.supply.burned, s.supply.emitted);
    const incremental = await node.runner.dump();
    await node.runner.resetAll();
    await node.catchUp(undefined, { verifySignatures: true });
    assert.equal(await node.runner.dump(), incremental);
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});

t('a short simulation drives a live dev node through every pipeline without a refusal', async () => {
  const tmp = tempDir();
  const node = await launch({
    dataDir: tmp.dir,
    genesis: devGenesis(200),
    key: DEV_KEYS[0],
    dev: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
  });
  try {
    const client = new SimClient(node.url, DEV_KEYS);
    const sim = new Simulator(client, 1);
    const pipelines = [
      'MINER_REGISTER',
      'TRANSFER',
      'TASK_SUBMIT',
      'TASK_RESPONSE',
      'TASK_VALIDATE',
      'CHAT_TURN',
      'AGENT_REQUEST',
      'SOCIAL_POST_CREATE',
      'WEB_SITE_REGISTER',
      'WEB_FILE_CHUNK',
      'WEB_RELEASE_ACTIVATE',
      'STORAGE_TRANSFER',
    ];
    const unsent = () => pipelines.filter((type) => !client.counts.sent[type]);
    // Until every pipeline got that far (a loaded machine takes longer), with a bound for a stuck one.
    await sim.run(Date.now() + 90_000, 100, () => unsent().length === 0);
    assert.equal(
      unsent(),
      [],
      `every pipeline reached (refused: ${JSON.stringify(client.counts.refused)}; log: ${sim.log.slice(-5).join('; ')})`,
    );
    assert.equal(client.counts.refused, {});
    const s = node.node.state();
    assert.is(sumBalances(s) + s.supply.escrow + s.supply.burned, s.supply.emitted);
    assert.ok(s.records.tasks.size > 0 && s.records.runs.size > 0);
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});

t.run();
