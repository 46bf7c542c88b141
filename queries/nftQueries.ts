/**
 * Reads of art NFTs (third fork): the consensus `nfts` records, newest first (queries/tokenQueries.ts);
 * the SVG body is read from the ART_MINT transaction.
 */
import type { ArtNft } from '../core/state.ts';
import type { ChainQueries } from './chainQueries.ts';
import { TokenQueries } from './tokenQueries.ts';

/** Art NFT query facade over the chain queries. */
export class NftQueries extends TokenQueries<'nfts'> {
  constructor(chain: ChainQueries) {
    super(chain, 'nfts');
  }

  /** The minted SVG, from the ART_MINT transaction. */
  async svg(n: ArtNft): Promise<string | undefined> {
    const tx = await this.chain.tx(n.txHash);
    return typeof tx?.svg === 'string' ? tx.svg : undefined;
  }
}
