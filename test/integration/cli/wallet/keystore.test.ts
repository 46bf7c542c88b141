/** Encrypted keystores (scrypt + aes-128-ctr + keccak MAC): round trip, wrong passwords, shape detection. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decryptKeystore, encryptKeystore, isKeystore, KeystoreError } from '../../../../cli/wallet/keystore.ts';
import { keyPairFromPrivateKey } from '../../../../core/keys.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readKeyFile } from '../../../../cli/start/keyFile.ts';
import { DEV_KEYS, tempDir } from '../../../helpers/testChain.ts';
import { errorMessage } from '../../../../core/errors.ts';

// Cheap scrypt for tests; the default cost is in cli/wallet/keystore.ts.
const FAST = { n: 256, r: 8, p: 1 };

test('property: any key and password round-trip; another password is refused with one line', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.string({ minLength: 1 }),
      fc.string({ minLength: 1 }),
      async (priv, pw, other) => {
        const key = keyPairFromPrivateKey(Buffer.from(priv).toString('hex'));
        const store = await encryptKeystore(key, pw, FAST);
        assert.ok(isKeystore(JSON.parse(JSON.stringify(store))));
        assert.deepEqual(await decryptKeystore(store, pw), key);
        if (other.normalize('NFKC') !== pw.normalize('NFKC')) {
          try {
            await decryptKeystore(store, other, 'keystore k.json');
            assert.fail('a wrong password decrypted');
          } catch (e) {
            assert.ok(e instanceof KeystoreError);
            assert.equal(errorMessage(e), "keystore k.json: wrong password (the keystore's MAC does not match)");
          }
        }
      },
    ),
    { numRuns: 25 },
  );
});

test('a tampered ciphertext or hostile scrypt cost is refused, never decrypted', async () => {
  const store = await encryptKeystore(DEV_KEYS[0], 'pw', FAST);
  const flipped = structuredClone(store);
  flipped.crypto.ciphertext = (flipped.crypto.ciphertext[0] === '0' ? '1' : '0') + flipped.crypto.ciphertext.slice(1);
  await decryptKeystore(flipped, 'pw').then(
    () => assert.fail(),
    (e) => assert.match(e.message, /wrong password/),
  );
  const greedy = structuredClone(store);
  greedy.crypto.kdfparams.n = 2 ** 30;
  await decryptKeystore(greedy, 'pw').then(
    () => assert.fail(),
    (e) => assert.match(e.message, /unsupported scrypt parameters/),
  );
  assert.ok(!isKeystore({ privateKey: DEV_KEYS[0].privateKey }));
});

test('a key file is read as a keystore when it has the shape of one, else as a plain {privateKey} file', async () => {
  const tmp = tempDir('ombra-keystore-');
  try {
    const enc = join(tmp.dir, 'enc.json');
    const plain = join(tmp.dir, 'plain.json');
    writeFileSync(enc, JSON.stringify(await encryptKeystore(DEV_KEYS[2], 'pw', FAST)));
    writeFileSync(plain, JSON.stringify({ privateKey: DEV_KEYS[3].privateKey }));
    process.env.OMBRA_KEYSTORE_PASSWORD = 'pw';
    assert.equal((await readKeyFile(enc)).address, DEV_KEYS[2].address);
    assert.equal((await readKeyFile(plain)).address, DEV_KEYS[3].address);
    process.env.OMBRA_KEYSTORE_PASSWORD = 'not it';
    await readKeyFile(enc).then(
      () => assert.fail(),
      (e) => assert.ok(e instanceof KeystoreError),
    );
  } finally {
    delete process.env.OMBRA_KEYSTORE_PASSWORD;
    tmp.cleanup();
  }
});
