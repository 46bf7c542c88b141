/**
 * Reads of image and audio NFTs (forks 4 and 5): the consensus records (queries/tokenQueries.ts)
 * and the minted file, streamed from the content store of the blob the NFT names.
 */
import { contentTypeOf } from '../core/media/mediaFacts.ts';
import type { AudioNft, ImageNft } from '../core/tx/media.ts';
import { BLOBS } from '../core/tx/social/socialBlob.ts';
import type { ChainQueries } from './chainQueries.ts';
import type { ContentQueries, StoredContent } from './contentQueries.ts';
import { TokenQueries } from './tokenQueries.ts';

/** A media NFT's file: what to send and how to label it. */
/** A minted file as served: the blob's bytes under the NFT format's content type. */
export type MediaFile = StoredContent;

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
  async file(n: ImageNft | AudioNft): Promise<MediaFile | undefined> {
    const blob = await this.content.served(BLOBS, n.blobId);
    return blob && { ...blob, contentType: contentTypeOf(n.format) };
  }
}
