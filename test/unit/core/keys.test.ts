import { createHash, createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify } from 'node:crypto';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressFromPublicKey } from '../../../core/address.ts';
import {
  DEV_MNEMONIC,
  derivationPath,
  isValidMnemonic,
  keyPairFromMnemonic,
  keyPairFromPrivateKey,
  newMnemonic,
  signMessage,
} from '../../../core/keys.ts';
import { DEV_ACCOUNTS } from '../../helpers/coreSupport.ts';

const PKCS8_ED25519_PREFIX = '302e020100300506032b657004220420';

/** The public key node:crypto derives from a 32-byte Ed25519 seed (hex). */
function nodePublicKey(seedHex: string): string {
  const priv = createPrivateKey({ key: Buffer.from(PKCS8_ED25519_PREFIX + seedHex, 'hex'), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(priv).export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32).toString('hex');
}

test('the fixture is the dev mnemonic at the documented path', () => {
  assert.equal(DEV_ACCOUNTS.mnemonic, DEV_MNEMONIC);
  assert.equal(DEV_ACCOUNTS.mnemonic, 'test test test test test test test test test test test junk');
  assert.equal(derivationPath(0), "m/44'/7777'/0'/0/0");
  assert.equal(derivationPath(9), "m/44'/7777'/0'/0/9");
  assert.deepEqual(
    DEV_ACCOUNTS.accounts.map((a) => a.index),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  );
});

test("dev index 0's address is oxde133ca6f509c74f6e2e849403cc461d2d5b3e3c", () => {
  assert.equal(keyPairFromMnemonic(DEV_MNEMONIC, 0).address, 'oxde133ca6f509c74f6e2e849403cc461d2d5b3e3c');
});

test('keys derived at indexes 0-9 match fixtures/dev-accounts.json exactly', () => {
  for (const a of DEV_ACCOUNTS.accounts) {
    const k = keyPairFromMnemonic(DEV_MNEMONIC, a.index);
    assert.deepEqual(k, { privateKey: a.privateKey, publicKey: a.publicKey, address: a.address }, `index ${a.index}`);
  }
});

test('the default index is 0 and surrounding whitespace does not change the derivation', () => {
  const messy = `  ${DEV_MNEMONIC.split(' ').join('   ')}\n`;
  assert.deepEqual(keyPairFromMnemonic(messy), keyPairFromMnemonic(DEV_MNEMONIC, 0));
});

test('node:crypto derives the same public key from the index 0 seed (independent implementation)', () => {
  const a = DEV_ACCOUNTS.accounts[0];
  assert.equal(nodePublicKey(a.privateKey), a.publicKey);
  assert.equal(nodePublicKey(a.privateKey), '94a4d146f6e45ee06236f0924513c99867ca094f818eebb94666029b50197485');
});

test('node:crypto derives the same public keys for every dev account', () => {
  for (const a of DEV_ACCOUNTS.accounts) assert.equal(nodePublicKey(a.privateKey), a.publicKey, `index ${a.index}`);
});

test('addresses are ox + the first 20 bytes of SHA-256 of the public key bytes', () => {
  for (const a of DEV_ACCOUNTS.accounts) {
    const expected = `ox${createHash('sha256').update(Buffer.from(a.publicKey, 'hex')).digest('hex').slice(0, 40)}`;
    assert.equal(addressFromPublicKey(a.publicKey), expected);
    assert.equal(a.address, expected);
  }
});

test('signatures match node:crypto byte for byte and verify there (Ed25519 is deterministic)', () => {
  const a = DEV_ACCOUNTS.accounts[0];
  const priv = createPrivateKey({ key: Buffer.from(PKCS8_ED25519_PREFIX + a.privateKey, 'hex'), format: 'der', type: 'pkcs8' });
  const msg = 'ab'.repeat(32);
  const ours = signMessage(msg, a.privateKey);
  assert.equal(ours, nodeSign(null, Buffer.from(msg, 'utf8'), priv).toString('hex'));
  assert.ok(nodeVerify(null, Buffer.from(msg, 'utf8'), createPublicKey(priv), Buffer.from(ours, 'hex')));
});

test('a private key given in upper case gives the lower-case key pair', () => {
  const a = DEV_ACCOUNTS.accounts[3];
  assert.deepEqual(keyPairFromPrivateKey(a.privateKey.toUpperCase()), {
    privateKey: a.privateKey,
    publicKey: a.publicKey,
    address: a.address,
  });
});

test('a private key that is not 64 hex characters is refused', () => {
  for (const bad of ['', 'ab', 'zz'.repeat(32), '00'.repeat(33)]) {
    assert.throws(() => keyPairFromPrivateKey(bad), /private key must be 64 hex characters/, bad);
  }
});

test('invalid mnemonics are refused: bad checksum, unknown word, wrong length, empty', () => {
  const bad = [
    'test test test test test test test test test test test test',
    'test test test test test test test test test test test junkk',
    'test test test test test test test test test test junk',
    '',
  ];
  for (const m of bad) {
    assert.ok(!isValidMnemonic(m), m);
    assert.throws(() => keyPairFromMnemonic(m, 0), /invalid BIP-39 mnemonic/, m);
  }
});

test('account indexes outside 0..2^31-1 or not integers are refused before derivation', () => {
  for (const i of [-1, 1.5, 2 ** 31, Number.NaN, Infinity]) {
    assert.throws(
      () => keyPairFromMnemonic(DEV_MNEMONIC, i),
      (e: unknown) => e instanceof RangeError && e.message === `bad account index ${i}`,
      String(i),
    );
  }
});

test('the largest unhardened index 2^31-1 derives a key', () => {
  const k = keyPairFromMnemonic(DEV_MNEMONIC, 2 ** 31 - 1);
  assert.match(k.address, /^ox[0-9a-f]{40}$/);
  assert.notEqual(k.address, DEV_ACCOUNTS.accounts[0].address);
});

test('a fresh mnemonic has 24 words and is valid', () => {
  const m = newMnemonic();
  assert.equal(m.split(' ').length, 24);
  assert.ok(isValidMnemonic(m));
  assert.notEqual(m, newMnemonic());
});
