/** Social transactions for core tests, signed with node:crypto-compatible keys via signTx. */
import type { KeyPair } from '../../core/keys.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { signTx } from '../../core/txCodec.ts';
import { DEV_GENESIS } from './coreSupport.ts';

/** Signs a social transaction of `type` from `key` with a fee of 10. */
function socialTx(key: KeyPair, type: string, fields: Record<string, unknown>, nonce: number): SignedTx {
  const unsigned = { type, from: key.address, ...fields, fee: '10', nonce, timestamp: DEV_GENESIS.timestamp };
  return signTx(unsigned, key) as SignedTx;
}

/** SOCIAL_POST_CREATE. */
export const postTx = (key: KeyPair, postId: string, nonce: number, over: Record<string, unknown> = {}) =>
  socialTx(key, 'SOCIAL_POST_CREATE', { postId, body: `post ${postId}`, blobIds: [], ...over }, nonce);

/** SOCIAL_LIKE_INTENT. */
export const likeTx = (key: KeyPair, author: string, postId: string, tokens: number, nonce: number) =>
  socialTx(key, 'SOCIAL_LIKE_INTENT', { author, postId, tokens }, nonce);

/** SOCIAL_FOLLOW_SET. */
export const followTx = (key: KeyPair, targetAddress: string, enabled: boolean, nonce: number) =>
  socialTx(key, 'SOCIAL_FOLLOW_SET', { targetAddress, enabled }, nonce);

/** SOCIAL_REACTION_SET (a like). */
export const reactTx = (key: KeyPair, targetPostId: string, enabled: boolean, nonce: number) =>
  socialTx(key, 'SOCIAL_REACTION_SET', { targetPostId, reaction: 'like', enabled }, nonce);
