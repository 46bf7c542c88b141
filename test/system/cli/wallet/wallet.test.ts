import { test } from 'node:test';
import { literal } from '../../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { DEV_MNEMONIC, isValidMnemonic, keyPairFromMnemonic } from '../../../../core/keys.ts';
import { devGenesis } from '../../../../cli/start/genesisFile.ts';
import { launch } from '../../../../launch/launch.ts';
import { runCli } from '../../../helpers/cliRun.ts';
import { DEV_KEYS, tempDir } from '../../../helpers/testChain.ts';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { encryptKeystore } from '../../../../cli/wallet/keystore.ts';
import { formatOmbra } from '../../../../core/ombraAmount.ts';

test('wallet address --index 0 prints the dev authority address and key', async () => {
  const r = await runCli(['wallet', 'address', '--index', '0']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^address:\s+oxde133ca6f509c74f6e2e849403cc461d2d5b3e3c$/m);
  assert.match(r.stdout, literal(new RegExp(`^publicKey:\\s+${DEV_KEYS[0].publicKey}$`, 'm')));
  assert.match(r.stderr, /dev mnemonic/);
});

test('wallet address --json with a mnemonic from the environment', async () => {
  const r = await runCli(['wallet', 'address', '--index', '3', '--json'], { env: { OMBRA_MNEMONIC: DEV_MNEMONIC } });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), {
    index: 3,
    address: DEV_KEYS[3].address,
    publicKey: DEV_KEYS[3].publicKey,
    path: "m/44'/7777'/0'/0/3",
  });
  assert.doesNotMatch(r.stderr, /dev mnemonic/);
});

test('wallet new prints a valid 24-word mnemonic whose account 0 is the printed address', async () => {
  const r = await runCli(['wallet', 'new', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const { mnemonic, address, path } = JSON.parse(r.stdout);
  assert.equal(mnemonic.split(' ').length, 24);
  assert.ok(isValidMnemonic(mnemonic));
  assert.equal(keyPairFromMnemonic(mnemonic, 0).address, address);
  assert.equal(path, "m/44'/7777'/0'/0/0");
  assert.match(r.stderr, /WARNING/);
  const text = await runCli(['wallet', 'new']);
  assert.equal(text.code, 0);
  const m = /^mnemonic:\s+(.+)$/m.exec(text.stdout)![1];
  assert.equal(m.split(' ').length, 24);
  assert.match(text.stdout, literal(new RegExp(`^address:\\s+${keyPairFromMnemonic(m, 0).address}$`, 'm')));
});

test('bad flags and bad input exit 2 with the help', async () => {
  const cases: [string[], RegExp][] = [
    [['wallet', 'address', '--index', 'x'], /--index must be an integer/],
    [['wallet', 'address', '--bogus'], /unknown flag --bogus/],
    [['wallet', 'address', '--mnemonic', 'not a mnemonic'], /not a valid English BIP-39 mnemonic/],
    [['wallet', 'send', '--to', 'ox12', '--amount', '5'], /--to must be an address/],
    [['wallet', 'send', '--to', DEV_KEYS[2].address, '--amount', '0'], /--amount must be positive/],
    [['wallet', 'send', '--to', DEV_KEYS[2].address, '--amount', '1.1234567'], /--amount: amount has more than 6 decimals/],
    [['wallet', 'send', '--to', DEV_KEYS[2].address, '--amount', '-1'], /--amount: amount must not be negative/],
    [['wallet', 'send', '--to', DEV_KEYS[2].address, '--amount', '1e6'], /--amount: amount must be a decimal number of OMBRA/],
    [['wallet', 'send', '--to', DEV_KEYS[2].address, '--amount-micro', '1.5'], /--amount-micro must be an integer/],
    [['wallet', 'send', '--to', DEV_KEYS[2].address, '--amount', '1', '--amount-micro', '1'], /not both/],
    [['wallet', 'balance', '--address', 'ox12'], /--address must be an address/],
    [['wallet', 'send', '--amount', '5'], /--to is required/],
    [['wallet', 'frobnicate'], /unknown wallet subcommand/],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args)));
  results.forEach((r, i) => {
    assert.equal(r.code, 2, `${cases[i][0].join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, literal(cases[i][1]));
    assert.match(r.stderr, /^ombra wallet: [^\n]+ \(see `ombra wallet( (send|balance|address|new))? --help`\)\n$/);
  });
  const help = await runCli(['wallet', 'send', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: ombra wallet send --to ADDR --amount OMBRA \| --amount-micro MICRO/);
  assert.match(help.stdout, /env OMBRA_URL/);
});

test('wallet send transfers on a running node and waits for the block; refusals exit 1 with the code', async () => {
  const tmp = tempDir('ombra-cli-wallet-');
  const node = await launch({
    dataDir: tmp.dir,
    genesis: devGenesis(200),
    key: DEV_KEYS[0],
    dev: true,
    httpHost: '127.0.0.1',
    httpPort: 0,
  });
  try {
    const from = DEV_KEYS[1].address;
    const to = DEV_KEYS[2].address;
    const before = { from: (await node.queries.chain.account(from)).balance, to: (await node.queries.chain.account(to)).balance };
    // Upper-case input is accepted and normalised.
    const r = await runCli(['wallet', 'send', '--to', to.toUpperCase(), '--amount', '5', '--index', '1', '--url', node.url], {
      env: { OMBRA_MNEMONIC: DEV_MNEMONIC },
    });
    assert.equal(r.code, 0, r.stderr);
    const hash = /^hash:\s+([0-9a-f]{64}) \(5 OMBRA to /m.exec(r.stdout)?.[1];
    assert.ok(hash, r.stdout);
    const block = Number(/^confirmed: block (\d+)$/m.exec(r.stdout)?.[1]);
    assert.ok(block > 0, r.stdout);
    const confirmed = await node.queries.chain.tx(hash!);
    assert.equal(confirmed?.blockIndex, block);
    assert.equal(confirmed?.from, from);
    assert.equal((await node.queries.chain.account(from)).balance, before.from - 5_000_000n - 1000n);
    assert.equal((await node.queries.chain.account(to)).balance, before.to + 5_000_000n);
    assert.equal((await node.queries.chain.account(from)).nonce, 1);

    // Two sends in a row without waiting: the second counts the first as pending.
    const [a, b] = [
      await runCli(['wallet', 'send', '--to', to, '--amount-micro', '1', '--index', '1', '--url', node.url, '--no-wait', '--json']),
      await runCli(['wallet', 'send', '--to', to, '--amount', '0.000002', '--index', '1', '--url', node.url, '--no-wait', '--json']),
    ];
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const nonces = [JSON.parse(a.stdout).nonce, JSON.parse(b.stdout).nonce];
    assert.equal(nonces[1], nonces[0] + 1);
    assert.equal(JSON.parse(a.stdout).status, 'pending');
    assert.deepEqual([JSON.parse(b.stdout).amount, JSON.parse(b.stdout).amountOmbra], ['2', '0.000002']);

    const poor = await runCli(['wallet', 'send', '--to', to, '--amount-micro', `1${'0'.repeat(24)}`, '--index', '1', '--url', node.url], {
      env: { OMBRA_MNEMONIC: DEV_MNEMONIC },
    });
    assert.equal(poor.code, 1, poor.stderr);
    assert.match(poor.stderr, /^error INSUFFICIENT_BALANCE: /m);
    assert.equal(poor.stdout, '');

    const down = await runCli(['wallet', 'send', '--to', to, '--amount', '1', '--url', 'http://127.0.0.1:9']);
    assert.equal(down.code, 1);
    assert.match(down.stderr, /cannot reach the node at http:\/\/127\.0\.0\.1:9/);
    // A dead --url says so once.
    assert.equal(down.stderr.match(/cannot reach/g)?.length, 1, down.stderr);

    // A keystore signs and reads the balance; a wrong password is one line, exit 1.
    const ks = join(tmp.dir, 'wallet.json');
    await writeFile(ks, JSON.stringify(await encryptKeystore(DEV_KEYS[1], 'correct horse', { n: 1024, r: 8, p: 1 })));
    const pw = { OMBRA_KEYSTORE_PASSWORD: 'correct horse' };
    const balance = await runCli(['wallet', 'balance', '--keystore', ks, '--url', node.url, '--json'], { env: pw });
    assert.equal(balance.code, 0, balance.stderr);
    const got = JSON.parse(balance.stdout);
    assert.equal(got.address, from);
    assert.equal(BigInt(got.balance), (await node.queries.chain.account(from)).balance);
    assert.equal(got.balanceOmbra, formatOmbra(BigInt(got.balance)));
    const other = await runCli(['wallet', 'balance', '--address', to, '--url', node.url]);
    assert.match(other.stdout, /^balance: +[0-9.]+ OMBRA \([0-9]+ micro-units\)$/m);
    const viaKeystore = await runCli(
      ['wallet', 'send', '--to', to, '--amount', '0.5', '--keystore', ks, '--url', node.url, '--no-wait', '--json'],
      {
        env: pw,
      },
    );
    assert.equal(viaKeystore.code, 0, viaKeystore.stderr);
    assert.equal(JSON.parse(viaKeystore.stdout).from, from);
    // A balance needs no password (the keystore's address is in clear); signing does.
    const noPassword = await runCli(['wallet', 'balance', '--keystore', ks, '--url', node.url, '--json'], {
      env: { OMBRA_KEYSTORE_PASSWORD: 'nope' },
    });
    assert.equal(noPassword.code, 0, noPassword.stderr);
    assert.equal(JSON.parse(noPassword.stdout).address, from);
    const wrong = await runCli(['wallet', 'send', '--to', to, '--amount', '0.5', '--keystore', ks, '--url', node.url, '--no-wait'], {
      env: { OMBRA_KEYSTORE_PASSWORD: 'nope' },
    });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^ombra wallet: keystore .*wallet\.json: wrong password/);
    assert.equal(wrong.stderr.trim().split('\n').length, 1, wrong.stderr);
  } finally {
    await node.stop();
    tmp.cleanup();
  }
});
