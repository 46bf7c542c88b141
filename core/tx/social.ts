/** Social types named by the spec: SOCIAL_LIKE_INTENT and SOCIAL_BLOB (schemas). */
import { f, defineTx } from '../schema.ts';
import { defineFamily } from './family.ts';
import { notExecuted } from './handler.ts';

export const SOCIAL_LIKE_INTENT = defineTx({
  type: 'SOCIAL_LIKE_INTENT',
  family: 'social',
  fork: 1,
  doc: 'Queues a funded like of a post for its author; expires after likeExpiryMs (86,400,000).',
  fields: {
    from: f.address(),
    author: f.address(),
    postId: f.id(64, 1),
    tokens: f.uint(10_000, 1),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

export const SOCIAL_BLOB = defineTx({
  type: 'SOCIAL_BLOB',
  family: 'social',
  fork: 1,
  doc: 'One chunk of a content-addressed blob; the blob is complete when all chunks landed and SHA-256 matches contentHash.',
  fields: {
    from: f.address(),
    blobId: f.hex(64),
    contentType: f.pattern(/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/, 'a MIME type'),
    totalBytes: f.uint(50_000_000, 1),
    totalChunks: f.uint(1_000, 1),
    chunkIndex: f.uint(999),
    contentHash: f.hex(64),
    chunkDataBase64: f.pattern(/^[A-Za-z0-9+/]{0,533336}={0,2}$/, 'base64 of at most 400,000 bytes'),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

/** Social types: schemas fixed here, effects arrive with the social work (issue 10). */
export const socialFamily = defineFamily({ name: 'social', handlers: [SOCIAL_LIKE_INTENT, SOCIAL_BLOB].map(notExecuted) });
