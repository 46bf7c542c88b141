/** ART_MINT (third fork): the submitter of a rewarded nft_svg task mints the winning SVG. */
import { sha256Hex } from '../hash.ts';
import { defineRecord } from '../record.ts';
import { f, defineTx } from '../schema.ts';
import { svgProblem } from '../svg.ts';
import { defineFamily } from './family.ts';
import { feeOf, payFee, refuse, txHandler } from './handler.ts';
import { checkSeedHash, checkTaskMint, markTaskMinted } from './task/taskMint.ts';

/** An art NFT minted from a rewarded SVG task. */
export interface ArtNft {
  tokenId: string;
  owner: string;
  taskId: string;
  minerId: string;
  mintedAt: number;
  blockIndex: number;
  txHash: string;
}

/** Art NFT records, `n:<tokenId>`. */
export const NFTS = defineRecord<ArtNft>()('nfts', { prefix: 'n', id: 'tokenId', doc: 'art NFT' });

/** ART_MINT: the live network's order, then fee, nonce, timestamp. */
const ART_MINT = defineTx({
  type: 'ART_MINT',
  family: 'art',
  fork: 3,
  doc: "Mints the rewarded answer of an nft_svg task, once, by its submitter. svg must be the best response's content (SHA-256 = its contentHash) and safe (no scripts, handlers or outside references); tokenId = SHA-256(taskId + svg); seedHash = SHA-256(prompt + minerId + the TASK_REWARD hash).",
  fields: {
    from: f.address(),
    tokenId: f.hex(64),
    svg: f.text(16_384, 1),
    owner: f.address(),
    taskId: f.id(64, 8),
    minerId: f.hex(64),
    seedHash: f.hex(64),
    model: f.optional(f.text(128)),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '`fee` moves from `from` to the block proposer; the NFT is recorded for `owner`.',
});

const mint = txHandler(ART_MINT, {
  check(tx, state) {
    const { task, best } = checkTaskMint(state, tx, 'nft_svg');
    if (sha256Hex(tx.svg) !== best.contentHash) refuse("svg is not the best response's content");
    const problem = svgProblem(tx.svg);
    if (problem) refuse(`svg ${problem}`);
    if (tx.tokenId !== sha256Hex(tx.taskId + tx.svg)) refuse('tokenId must be SHA-256(taskId + svg)');
    checkSeedHash(task, tx.seedHash);
    if (state.get(NFTS, tx.tokenId)) refuse(`token ${tx.tokenId} already exists`);
  },
  apply(tx, s, ctx) {
    s.put(NFTS, tx.tokenId, {
      tokenId: tx.tokenId,
      owner: tx.owner,
      taskId: tx.taskId,
      minerId: tx.minerId,
      mintedAt: ctx.timestamp,
      blockIndex: ctx.height,
      txHash: tx.hash,
    });
    markTaskMinted(s, tx.taskId, tx.tokenId);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** Art NFTs (third fork): ART_MINT and the NFT records. */
export const artFamily = defineFamily({ name: 'art', handlers: [mint], records: [NFTS] });
