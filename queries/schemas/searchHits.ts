/** The schema of a search hit (GET /api/chain/search/:q): every kind, discriminated by `type`. */
import { ref } from './records.ts';
import { address, either, hash, lit, ms, nullable, obj, oneOf, type Schema, type Static, str, uint } from './shapes.ts';

const hit = <const T extends string, D>(type: T, data: Schema<D>) => obj({ type: lit(type), data });

/** The search answer: every hit kind, discriminated by `type`. */
export const SEARCH_HIT = either(
  hit('block', ref('BlockSummary')),
  hit('tx', ref('ConfirmedTx')),
  hit('address', ref('AddressBrief')),
  hit('task', ref('TaskSummary')),
  hit('run', obj({ agentRunId: hash, conversationId: hash, submitter: address, status: str, submittedAt: ms })),
  hit('conversation', ref('Conversation')),
  hit('nft', obj({ kind: oneOf('art', 'image', 'audio'), tokenId: hash, owner: address, mintedAt: ms, blockIndex: uint })),
  hit('post', obj({ postId: str, author: address, likeCount: uint, timestamp: ms, blockIndex: uint })),
  hit('profile', obj({ address, displayName: str })),
  hit('site', obj({ siteId: str, name: str, owner: address, activeReleaseId: nullable(str), releaseCount: uint })),
  hit('alias', obj({ alias: str, siteId: str, owner: address })),
  hit('release', obj({ releaseId: str, siteId: str, seq: uint, files: uint, publishedAt: ms })),
  hit(
    'file',
    obj({
      fileId: hash,
      siteId: str,
      path: str,
      contentType: str,
      totalBytes: uint,
      status: oneOf('pending', 'complete', 'expired', 'deleted'),
    }),
  ),
  hit('miner', obj({ id: hash, name: str, address })),
  hit('dm', obj({ dmId: str, from: address, blockIndex: uint })),
);

/** One search hit: what it is (`type`) and a brief of it (`data`), enough to list and link it. */
export type SearchHit = Static<typeof SEARCH_HIT>;
