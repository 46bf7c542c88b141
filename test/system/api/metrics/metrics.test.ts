/**
 * GET /metrics on a live node: valid under `promtool check metrics` (Debian's prometheus
 * package; .ci/run installs it, and under CI its absence is a failure), and values that move
 * with blocks, transactions and requests. Block import timings and rejections through the
 * node's narrow callback.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { literal } from '../../../helpers/literal.ts';
import { missing } from '../../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { NodeMetrics } from '../../../../api/metrics/nodeMetrics.ts';
import { OmbraClient, Wallet } from '../../../../client/index.ts';
import { devGenesis } from '../../../../cli/start/genesisFile.ts';
import { launch, type Launched } from '../../../../launch/launch.ts';
import { OmbraNode } from '../../../../node/node.ts';
import { waitFor } from '../../../helpers/nodeProcess.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../../helpers/testChain.ts';

let node: Launched;
let cleanup: () => void;

/** The value of a sample line `name{labels} value` (labels as written, '' for none). */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const scrape = async () => {
  const res = await fetch(`${node.url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return res.text();
};

before(async () => {
  const tmp = tempDir('ombra-metrics-');
  cleanup = tmp.cleanup;
  node = await launch({ dataDir: tmp.dir, genesis: devGenesis(200), key: DEV_KEYS[0], dev: true, httpHost: '127.0.0.1', httpPort: 0 });
});

after(async () => {
  await node.stop();
  cleanup();
});

test('the exposition passes promtool check metrics', { skip: missing('promtool') }, async () => {
  await waitFor(async () => (node.node.head().index >= 2 ? true : undefined));
  await fetch(`${node.url}/api/chain/height`);
  const text = await scrape();
  const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  assert.equal(check.status, 0, `${check.stdout}${check.stderr}`);
  for (const name of [
    'ombra_chain_height',
    'ombra_chain_head_age_seconds',
    'ombra_blocks_produced_total',
    'ombra_blocks_imported_total',
    'ombra_blocks_rejected_total',
    'ombra_block_import_duration_seconds',
    'ombra_block_production_duration_seconds',
    'ombra_mempool_transactions',
    'ombra_mempool_bytes',
    'ombra_peers',
    'ombra_syncing',
    'ombra_reorgs_total',
    'ombra_reorg_depth_blocks',
    'ombra_read_model_resets_total',
    'ombra_store_memory_bytes',
    'ombra_peers_banned',
    'ombra_peer_bans_total',
    'ombra_gossip_dropped_total',
    'ombra_gossip_rejected_total',
    'ombra_http_requests_total',
    'ombra_http_request_duration_seconds',
    'ombra_stream_subscribers',
    'ombra_alert_outbox_deliveries',
    'ombra_alert_delivery_attempts_total',
    'ombra_alert_delivery_duration_seconds',
    'ombra_projection_lag_blocks',
    'ombra_signature_verifier_info',
    'process_cpu_user_seconds_total',
    'nodejs_eventloop_lag_seconds',
  ])
    assert.match(text, literal(new RegExp(`^# TYPE ${name} `, 'm')), name);
});

test('height, blocks, transactions and request counts move with the chain and the traffic', async () => {
  const before = await scrape();
  const h0 = sample(before, 'ombra_chain_height')!;
  const produced0 = sample(before, 'ombra_blocks_produced_total')!;
  const timed0 = sample(before, 'ombra_block_production_duration_seconds_count')!;
  const route = 'method="GET",route="/api/chain/block/:index",status="200"';
  const requests0 = sample(before, 'ombra_http_requests_total', route) ?? 0;
  for (let i = 0; i < 3; i++) await fetch(`${node.url}/api/chain/block/${i}`);
  const { tx } = await new Wallet(new OmbraClient(node.url), DEV_KEYS[5]).send('TRANSFER', {
    to: DEV_KEYS[6].address,
    amount: '7',
    fee: '1000',
  });
  await new OmbraClient(node.url).waitForConfirmation(tx.hash, 20_000, 50);
  await waitFor(async () => (node.node.head().index >= h0 + 2 ? true : undefined));
  const after = await scrape();
  assert.ok(sample(after, 'ombra_chain_height')! >= h0 + 2);
  assert.ok(sample(after, 'ombra_blocks_produced_total')! >= produced0 + 2);
  assert.ok(sample(after, 'ombra_block_production_duration_seconds_count')! >= timed0 + 2);
  assert.equal(sample(after, 'ombra_http_requests_total', route), requests0 + 3, 'by route template, not by raw path');
  assert.equal(sample(after, 'ombra_transactions_accepted_total', 'origin="api"'), 1);
  assert.ok(sample(after, 'ombra_transactions_confirmed_total')! >= 1);
  assert.ok(sample(after, 'ombra_chain_head_age_seconds')! < 60);
  // LevelDB's memtable holds the blocks just written: never zero on an open store.
  assert.ok(sample(after, 'ombra_store_memory_bytes')! > 0, 'LevelDB reports its memory');
  assert.equal(sample(after, 'ombra_signature_verifier_info', 'implementation="libsodium"'), 1, 'libsodium loads here');
  await fetch(`${node.url}/no/such/route/${Math.random()}`);
  assert.ok(sample(await scrape(), 'ombra_http_requests_total', 'method="GET",route="unmatched",status="404"')! >= 1);
});

test('block imports are timed and refused blocks counted by code, through the node callback', async () => {
  const source = await openTestChain();
  const tmp = tempDir('ombra-metrics-import-');
  const metrics = new NodeMetrics({ processMetrics: false });
  const receiver = await OmbraNode.open({
    dbDir: join(tmp.dir, 'db'),
    genesis: source.genesis,
    clock: source.now,
    onBlockWork: metrics.blockWork,
  });
  try {
    await source.produce(2);
    await receiver.importBlock(await source.node.store.block(1));
    await receiver.importBlock(await source.node.store.block(2));
    const forged = { ...(await source.node.store.block(2))!, index: 3 };
    await receiver.importBlock(forged).catch(() => undefined);
    const text = (await metrics.exposition()).body;
    assert.equal(sample(text, 'ombra_block_import_duration_seconds_count'), 2);
    assert.equal(sample(text, 'ombra_blocks_rejected_total', 'code="INVALID_BLOCK"'), 1);
  } finally {
    await receiver.stop();
    tmp.cleanup();
    await source.destroy();
  }
});
