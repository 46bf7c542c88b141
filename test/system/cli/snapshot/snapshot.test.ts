import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { literal } from '../../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { blockHash, type Block } from '../../../../core/block.ts';
import { signMessage } from '../../../../core/keys.ts';
import { runCli } from '../../../helpers/cliRun.ts';
import { DEV_KEYS, openTestChain, tempDir } from '../../../helpers/testChain.ts';

const tmp = tempDir('ombra-cli-snapshot-');
const dataDir = join(tmp.dir, 'data');
const file = join(tmp.dir, 'chain.ndjson');
let lines: string[] = [];
let head: Block;
let txCount = 0;

/** Block height -> line index in the file (line 0 is the genesis line). */
const lineOf = (height: number) => height + 1;

/** Writes a tampered copy and audits it. */
async function auditTampered(name: string, edit: (lines: string[]) => string[], args: string[] = []) {
  const path = join(tmp.dir, `${name}.ndjson`);
  writeFileSync(path, `${edit([...lines]).join('\n')}\n`);
  return runCli(['audit', path, ...args]);
}

before(async () => {
  const c = await openTestChain({ dir: dataDir });
  try {
    await c.produce(2);
    for (let round = 0; round < 4; round++) {
      for (let i = 1; i <= 3; i++) await c.node.submitTx(c.transfer(i, DEV_KEYS[(i + round) % 10].address, 1_000_000n * BigInt(round + 1)));
      await c.produce();
    }
    await c.node.submitTx(c.transfer(5, DEV_KEYS[6].address, 42n, 0n));
    await c.produce(3);
    head = c.node.head();
  } finally {
    await c.close();
  }
});

after(() => tmp.cleanup());

test('snapshot export writes the genesis line and every block in order', async () => {
  const r = await runCli(['snapshot', 'export', '--data-dir', dataDir, '--out', file]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, literal(new RegExp(`exported ${head.index + 1} blocks .* ${readFileSync(file).length} bytes`)));
  assert.ok(!existsSync(`${file}.tmp`));
  lines = readFileSync(file, 'utf8').split('\n');
  assert.equal(lines.pop(), '');
  assert.equal(lines.length, head.index + 2);
  const genesis = JSON.parse(lines[0]).genesis;
  assert.equal(genesis.chainId, 'ombra-dev');
  const blocks = lines.slice(1).map((l) => JSON.parse(l) as Block);
  blocks.forEach((b, i) => assert.equal(b.index, i));
  assert.equal(blocks.at(-1)!.hash, head.hash);
  txCount = blocks.reduce((n, b) => n + b.transactions.length, 0);
  assert.equal(txCount, 13);
});

test('export refuses a dir without a chain and a dir held by a running node', async () => {
  const empty = tempDir('ombra-cli-empty-');
  try {
    const r = await runCli(['snapshot', 'export', '--data-dir', empty.dir, '--out', join(empty.dir, 'x.ndjson')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no chain in /);
    assert.ok(!existsSync(join(empty.dir, 'db')), 'the refused dir stays untouched');
    const usage = await runCli(['snapshot', 'export', '--data-dir', empty.dir]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--out is required/);
  } finally {
    empty.cleanup();
  }
  const c = await openTestChain({ dir: dataDir });
  try {
    const r = await runCli(['snapshot', 'export', '--data-dir', dataDir, '--out', join(tmp.dir, 'locked.ndjson')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /data dir .* is in use by a running node; stop it first/);
  } finally {
    await c.close();
  }
});

test('audit of the exported file is OK, inline and with signature workers', async () => {
  const [inline, workers] = await Promise.all([runCli(['audit', file, '--workers', '0']), runCli(['audit', file, '--workers', '2'])]);
  for (const r of [inline, workers]) {
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(r.stdout, `OK: ${head.index + 1} blocks, ${txCount} transactions, head ${head.hash}\n`);
  }
});

test('audit reports the height of every kind of fault', async () => {
  const blocks = lines.slice(1).map((l) => JSON.parse(l) as Block);
  const k = blocks.findIndex((b) => b.transactions.length > 0);
  const last = blocks.length - 1;
  const edit = (height: number, fn: (b: Block) => void) => (ls: string[]) => {
    const b = JSON.parse(ls[lineOf(height)]) as Block;
    fn(b);
    ls[lineOf(height)] = JSON.stringify(b);
    return ls;
  };
  const resign = (b: Block) => {
    // A consistent header and attestation, so only the deeper check can catch the change.
    b.hash = blockHash(b);
    b.attestations = [{ ...b.attestations[0], signature: signMessage(b.hash, DEV_KEYS[0].privateKey) }];
  };
  const cases: { name: string; height: number; edit: (ls: string[]) => string[]; why: RegExp; args?: string[] }[] = [
    { name: 'amount', height: k, edit: edit(k, (b) => (b.transactions[0].amount = '999')), why: /HASH_MISMATCH|txRoot|hash/ },
    {
      name: 'swap',
      height: k,
      edit: (ls) => ([ls[lineOf(k)], ls[lineOf(k + 1)]] = [ls[lineOf(k + 1)], ls[lineOf(k)]]) && ls,
      why: /index does not follow/,
    },
    { name: 'stateRoot', height: k + 1, edit: edit(k + 1, (b) => (b.stateRoot = 'ab'.repeat(32))), why: /hash does not match the header/ },
    {
      name: 'stateRoot-resigned',
      height: k + 1,
      edit: edit(k + 1, (b) => ((b.stateRoot = 'ab'.repeat(32)), resign(b))),
      why: /stateRoot does not match/,
    },
    {
      name: 'truncated',
      height: k + 2,
      edit: (ls) => ((ls[lineOf(k + 2)] = ls[lineOf(k + 2)].slice(0, 50)), ls),
      why: new RegExp(`not valid JSON .*\\(line ${lineOf(k + 2) + 1}\\)$`, 'm'),
    },
    {
      name: 'allocations',
      height: 0,
      edit: (ls) => {
        const g = JSON.parse(ls[0]);
        g.genesis.allocations[DEV_KEYS[9].address] = '1';
        ls[0] = JSON.stringify(g);
        return ls;
      },
      why: /block 0 is not the genesis block/,
    },
    { name: 'genesis-json', height: 0, edit: (ls) => ((ls[0] = '{"genesis": '), ls), why: /genesis line is not valid JSON/ },
    {
      name: 'bad-signature',
      height: k,
      edit: edit(k, (b) => (b.transactions[0].signature = signMessage('x', DEV_KEYS[1].privateKey))),
      why: /INVALID_SIGNATURE/,
    },
    {
      name: 'bad-signature-workers',
      height: k,
      edit: edit(k, (b) => (b.transactions[0].signature = signMessage('x', DEV_KEYS[1].privateKey))),
      why: /INVALID_SIGNATURE/,
      args: ['--workers', '2'],
    },
    { name: 'dropped-block', height: last - 1, edit: (ls) => (ls.splice(lineOf(last - 1), 1), ls), why: /index does not follow/ },
    { name: 'blank-line', height: 3, edit: (ls) => (ls.splice(lineOf(3), 0, ''), ls), why: /empty line \(line 5\)/ },
  ];
  // Two audits at a time (the machine's cores): ten at once on a loaded machine ran past runCli's timeout.
  const results: Awaited<ReturnType<typeof auditTampered>>[] = [];
  for (let i = 0; i < cases.length; i += 2) {
    const pair = cases.slice(i, i + 2).map((c) => auditTampered(c.name, c.edit, c.args));
    results.push(...(await Promise.all(pair)));
  }
  results.forEach((r, i) => {
    const c = cases[i];
    assert.equal(r.code, 1, `${c.name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, literal(new RegExp(`^FAULT at height ${c.height}: `)), `${c.name}: ${r.stdout}`);
    assert.match(r.stdout, literal(c.why), `${c.name}: ${r.stdout}`);
  });
  const empty = await auditTampered('empty', () => []);
  assert.equal(empty.code, 1);
  assert.match(empty.stdout, /^FAULT at height 0: /);
  const missing = await runCli(['audit', join(tmp.dir, 'nope.ndjson')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /cannot read .*ENOENT/);
  const usage = await runCli(['audit']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /^ombra audit: FILE or --data-dir DIR is required \(see `ombra audit --help`\)\n$/);
});
