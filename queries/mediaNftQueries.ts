/**
 * Reads of image and audio NFTs (forks 4 and 5): the consensus records (queries/tokenQueries.ts)
 * and the minted file, streamed from the content store of the blob the NFT names.
 */
import { contentTypeOf } from '../core/media/mediaFacts.ts';
import type { AudioNft, ImageNft } from '../core/tx/media.ts';
import { BLOBS } from '../core/tx/socialBlob.ts';
import type { ChainQueries } from './chainQueries.ts';
import type { ContentQueries } from './contentQueries.ts';
import { TokenQueries } from './tokenQueries.ts';

/** A media NFT's file: what to send and how to label it. */
export interface MediaFile {
  contentType: string;
  /** The blob's SHA-256, the file's strong validator. */
  contentHash: string;
  size: number;
  bytes: AsyncGenerator<Uint8Array>;
}

/** Image and audio NFT query facade. */
export class MediaNftQueries {
  readonly image: TokenQueries<'imageNfts'>;
  readonly audio: TokenQueries<'audioNfts'>;
  private readonly content: ContentQueries;

  constructor(chain: ChainQueries, content: ContentQueries) {
    this.image = new TokenQueries(chain, 'imageNfts');
    this.audio = new TokenQueries(chain, 'audioNfts');
    this.content = content;
  }

  /** The NFT's file, or undefined when its blob is not complete in this node's state. */
  file(n: ImageNft | AudioNft): MediaFile | undefined {
    const blob = this.content.complete(BLOBS, n.blobId);
    if (!blob) return undefined;
    return {
      contentType: contentTypeOf(n.format),
      contentHash: blob.contentHash,
      size: blob.totalBytes,
      bytes: this.content.bytes(BLOBS, n.blobId),
    };
  }
}
