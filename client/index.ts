/**
 * `ombra-node/client`: a typed client of an Ombra node. Reads, signing and submitting every
 * transaction type from core's schemas, and live subscriptions with resume.
 *
 * ```ts
 * import { OmbraClient, Wallet, keyFromMnemonic } from 'ombra-node/client';
 * const client = new OmbraClient('http://127.0.0.1:7777');
 * const wallet = new Wallet(client, keyFromMnemonic(mnemonic, 0));
 * const { tx } = await wallet.send('TRANSFER', { to, amount: '1000000', fee: '1000' });
 * await client.waitForConfirmation(tx.hash);
 * ```
 */
export * from './browser.ts';
export { buildTx, TRANSACTION_TYPES, Wallet, type SignMeta, type TxBody } from './signer.ts';
export { keyPairFromMnemonic as keyFromMnemonic, keyPairFromPrivateKey as keyFromPrivateKey, type KeyPair } from '../core/keys.ts';
