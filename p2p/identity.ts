/** The node's libp2p identity, kept in the data dir so its peer id survives restarts. */
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import type { PrivateKey } from '@libp2p/interface';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Loads `<dataDir>/p2p-key.json`, creating it on first start. */
export async function loadOrCreatePeerKey(dataDir: string): Promise<PrivateKey> {
  const file = join(dataDir, 'p2p-key.json');
  if (existsSync(file)) {
    const { key } = JSON.parse(readFileSync(file, 'utf8')) as { key: string };
    return privateKeyFromProtobuf(Buffer.from(key, 'base64')) as unknown as PrivateKey;
  }
  // @libp2p/crypto types against a newer @libp2p/interface than libp2p 2; the objects are the same.
  const key = (await generateKeyPair('Ed25519')) as unknown as PrivateKey;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ key: Buffer.from(privateKeyToProtobuf(key as never)).toString('base64') })}\n`, {
    mode: 0o600,
  });
  renameSync(`${file}.tmp`, file);
  return key;
}
