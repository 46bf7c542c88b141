/** Every query object the API serves from, built from the read-side ports. */
import type { ReadPorts } from '../node/ports.ts';
import type { BlockJsonCacheOptions } from './blockJsonCache.ts';
import { AgentQueries } from './agentQueries.ts';
import { ChainQueries } from './chainQueries.ts';
import { ContentQueries } from './contentQueries.ts';
import { MediaNftQueries } from './mediaNftQueries.ts';
import { NftQueries } from './nftQueries.ts';
import { SearchQueries } from './searchQueries.ts';
import { SocialQueries } from './socialQueries.ts';
import { StatsQueries } from './statsQueries.ts';
import { TaskQueries } from './taskQueries.ts';
import { WebQueries } from './webQueries.ts';

/** The query objects, by resource. */
export interface Queries {
  chain: ChainQueries;
  tasks: TaskQueries;
  agents: AgentQueries;
  nfts: NftQueries;
  /** Image and audio NFTs. */
  media: MediaNftQueries;
  stats: StatsQueries;
  content: ContentQueries;
  social: SocialQueries;
  web: WebQueries;
  /** Search across every id kind. */
  search: SearchQueries;
}

/** Options of the query objects. */
export interface QueriesOptions {
  /** Bounds of the cache of recently read blocks' JSON (queries/blockJsonCache.ts). */
  blockCache: Partial<BlockJsonCacheOptions>;
}

/** Builds the query objects over one node's read-side ports. */
export function createQueries(ports: ReadPorts, options: Partial<QueriesOptions> = {}): Queries {
  const chain = new ChainQueries(ports, options.blockCache);
  const content = new ContentQueries(ports);
  const sources = {
    chain,
    tasks: new TaskQueries(ports),
    agents: new AgentQueries(ports),
    nfts: new NftQueries(chain),
    media: new MediaNftQueries(chain, content),
    social: new SocialQueries(ports),
    web: new WebQueries(ports, content),
  };
  return { ...sources, stats: new StatsQueries(ports.models), content, search: new SearchQueries(ports, sources) };
}
