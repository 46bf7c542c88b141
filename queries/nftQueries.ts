/**
 * Reads of art NFTs (third fork): the consensus `nfts` records, newest first (by mint block,
 * then tokenId), sorted once per height; the SVG body is read from the ART_MINT transaction.
 */
import type { ArtNft } from '../core/state.ts';
import type { ChainQueries } from './chainQueries.ts';

/** The spec's Art NFT record: the consensus record without its transaction hash. */
export type ArtNftRecord = Omit<ArtNft, 'txHash'>;

/** The served record of a consensus NFT. */
export function artRecord(n: ArtNft): ArtNftRecord {
  const { txHash: _txHash, ...record } = n;
  return record;
}

const cache = new WeakMap<ChainQueries, { height: number; sorted: ArtNft[] }>();

/** Art NFT query facade over the chain queries. */
export class NftQueries {
  readonly queries: ChainQueries;

  constructor(queries: ChainQueries) {
    this.queries = queries;
  }

  /** Every NFT, newest first. */
  all(): ArtNft[] {
    const height = this.queries.height();
    const hit = cache.get(this.queries);
    if (hit && hit.height === height) return hit.sorted;
    const sorted = [...this.queries.state().records.nfts.values()].sort(
      (a, b) => b.blockIndex - a.blockIndex || (a.tokenId < b.tokenId ? -1 : 1),
    );
    cache.set(this.queries, { height, sorted });
    return sorted;
  }

  /** One NFT by token id. */
  get(tokenId: string): ArtNft | undefined {
    return this.queries.state().records.nfts.get(tokenId);
  }

  /** The minted SVG, from the ART_MINT transaction. */
  async svg(n: ArtNft): Promise<string | undefined> {
    const tx = await this.queries.tx(n.txHash);
    return typeof tx?.svg === 'string' ? tx.svg : undefined;
  }
}
