/**
 * A real reorganisation under the sink: three authorities split 1 | 2 (the lone one with a
 * follower, as a node produces only with a peer), the sink follows the lone one (which mines a
 * transfer on its branch), then the halves join and the lone node switches to
 * the longer branch. The mirror must drop the abandoned blocks and the transfer's balances, hold
 * exactly the node's branch, and count the reorg.
 */
import { test } from 'node:test';
import { missing } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { OmbraClient } from '../../../client/reads.ts';
import { Wallet } from '../../../client/signer.ts';
import { Sink } from '../../../sink/sink.ts';
import { SINK_DEFAULTS } from '../../../sink/sinkOptions.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { startPostgres } from '../../helpers/postgresCluster.ts';
import { checkMirror } from '../../helpers/sinkCheck.ts';
import { DEV_KEYS } from '../../helpers/testChain.ts';
import { converged, testNet } from '../../helpers/testnet.ts';

test('a reorganisation between two authorities is undone in the database, live and at a restart', {
  skip: missing('postgresql'),
}, async () => {
  const pgc = await startPostgres('sink reorg');
  assert.ok(pgc, 'PostgreSQL started');
  // Three authorities and a follower (node 3): a node produces only with a peer.
  const net = testNet(4, 300, 3);
  const lines: string[] = [];
  const sinks: { sink: Sink; run: Promise<unknown> }[] = [];
  /** A sink on `schema` following `url`. */
  const follow = (url: string, schema: string) => {
    const sink = new Sink({ ...SINK_DEFAULTS, url, db: pgc.url, schema, log: (l) => lines.push(`${schema}: ${l}`), retryMinMs: 50 });
    const s = { sink, run: sink.run().catch((e: Error) => e) };
    sinks.push(s);
    return s;
  };
  const mirrored = (schema: string, hash: string) =>
    waitFor(
      async () => (pgc.tryPsql(`SELECT count(*) FROM ${schema}.transactions WHERE hash = '${hash}'`) === '1' ? true : undefined),
      90_000,
    );
  try {
    const lone = await net.start(0, []);
    await net.start(3, [0]);
    await net.start(1, []);
    await net.start(2, [1]);
    const dropped: string[] = [];
    lone.node.events$.subscribe((e) => void (e.type === 'reorg' && dropped.push(...e.dropped)));
    // `ombra` follows through the switch (the reorg event); `later` is stopped before it and
    // restarted after (its cursor's block is no longer the node's at that height).
    const { sink } = follow(lone.url, 'ombra');
    const later = follow(lone.url, 'later');
    // A transfer on the lone branch, mirrored before the switch.
    const to = DEV_KEYS[9].address;
    const { tx } = await new Wallet(new OmbraClient(lone.url), DEV_KEYS[0]).send('TRANSFER', { to, amount: '777000', fee: '1000' });
    await mirrored('ombra', tx.hash);
    await mirrored('later', tx.hash);
    later.sink.stop();
    assert.equal(await later.run, undefined);
    const mirroredAt = Number(pgc.psql(`SELECT block_height FROM ombra.transactions WHERE hash = '${tx.hash}'`));
    // `later` saved its folded state as it stopped, at its cursor: a block of the lone branch.
    const savedHash = pgc.psql('SELECT hash FROM later.sink_state_head');
    assert.equal(savedHash, pgc.psql('SELECT hash FROM later.sink_cursor'));
    // The pair has two slots of three: its branch is the longer one.
    await waitFor(async () => (net.nodes[1]!.node.head().index > lone.node.head().index + 2 ? true : undefined), 90_000);
    // Nothing is produced while the branches meet, so the lone node cannot re-mine the transfer elsewhere first.
    for (const x of net.nodes) await x!.producer?.stop();
    lone.p2p!.connect(net.addr(1));
    await converged(net, 90_000);
    assert.ok(dropped.length > 0, 'the lone node abandoned its branch');
    const head = lone.node.head();
    await waitFor(async () => (pgc.psql('SELECT hash FROM ombra.sink_cursor') === head.hash ? true : undefined), 90_000);
    assert.equal(pgc.psql(`SELECT count(*) FROM ombra.blocks WHERE hash IN (${dropped.map((h) => `'${h}'`).join(', ')})`), '0');
    const check = await checkMirror(pgc.url, 'ombra', lone.url);
    assert.equal(check.height, head.index);
    // The transfer's block is gone; the node's new branch decides whether (and where) it is again.
    const onChain = (await new OmbraClient(lone.url).http.find(`/api/chain/tx/${tx.hash}`)) as {
      status?: string;
      blockIndex?: number;
    } | null;
    const row = pgc.psql(`SELECT block_height FROM ombra.transactions WHERE hash = '${tx.hash}'`);
    if (onChain?.status === 'confirmed') assert.equal(Number(row), onChain.blockIndex);
    else assert.equal(row, '', `the abandoned transfer (mirrored at ${mirroredAt}) left the mirror`);
    assert.ok((await sink.metrics.reorgs.get()).values[0].value >= 1, 'the reorg was counted');
    assert.ok(lines.some((l) => /^ombra: the node reorganised from height/.test(l)));

    const again = follow(lone.url, 'later');
    await waitFor(async () => (pgc.psql('SELECT hash FROM later.sink_cursor') === head.hash ? true : undefined), 90_000);
    assert.ok(lines.some((l) => /^later: the node's chain left the mirror above height \d+: its rows will be replaced$/.test(l)));
    assert.equal(pgc.psql(`SELECT count(*) FROM later.blocks WHERE hash IN (${dropped.map((h) => `'${h}'`).join(', ')})`), '0');
    assert.deepEqual(await checkMirror(pgc.url, 'later', lone.url), check);
    // That saved state was of a block the node abandoned: the restart refolded rather than load it.
    assert.ok(dropped.includes(savedHash), 'the saved state was on the abandoned branch');
    assert.ok(!lines.some((l) => /^later: state loaded/.test(l)));
    assert.equal((await again.sink.metrics.reorgs.get()).values[0].value, 1);
  } catch (e) {
    // The sink's own account of what it did is the first thing to read when this fails.
    if (e instanceof Error) e.message += `\nsink log:\n${lines.join('\n')}`;
    throw e;
  } finally {
    for (const s of sinks) s.sink.stop();
    await Promise.all(sinks.map((s) => s.run));
    await net.stop();
    pgc.stop();
  }
});
