/**
 * `OmbraClient`: typed reads of a node's HTTP API, transaction submission and live
 * subscriptions with resume. Browser-safe (the explorer imports it as served by the node);
 * signing lives in `signer.ts`, which needs Node's crypto.
 */
import { HttpTransport, type ClientOptions } from './http.ts';
import { subscribe, type SubscribeEnd, type SubscribeOptions } from './subscribe.ts';
import type {
  AccountRecord,
  ArtNft,
  Block,
  BlockSummary,
  Bundle,
  FileInfo,
  SiteReleases,
  ChainParams,
  Health,
  HeightAnswer,
  MediaNft,
  MempoolPage,
  RunRecord,
  SearchHit,
  Submitted,
  TaskPipeline,
  TaskSummary,
  TxRecord,
  WireTx,
} from './types.ts';

/** A page request. */
export interface Page {
  limit?: number;
  offset?: number;
}

/** A client of one node. */
export class OmbraClient {
  readonly http: HttpTransport;

  constructor(opts: ClientOptions | string) {
    this.http = new HttpTransport(typeof opts === 'string' ? { url: opts } : opts);
  }

  /** The absolute URL of an API path (for `<img src>`, links). */
  url(path: string): string {
    return this.http.url(path);
  }

  // ---- chain ------------------------------------------------------------------------------

  health = () => this.http.get<Health>('/api/health');
  height = () => this.http.get<HeightAnswer>('/api/chain/height');
  params = () => this.http.get<ChainParams>('/api/chain/params');
  stats = () => this.http.get<Record<string, unknown>>('/api/chain/stats');
  block = (index: number) => this.http.find<Block>(`/api/chain/block/${index}`);
  blockByHash = (hash: string) => this.http.find<Block>(`/api/chain/block/hash/${hash}`);
  /** Block summaries, newest first. */
  blocks = (p: Page = {}) => this.http.get<{ blocks: BlockSummary[]; total: number }>('/api/chain/blocks', { ...p });
  /** Full blocks `from..to` (at most 500). */
  blocksRange = (from: number, to: number) =>
    this.http.get<{ from: number; to: number; count: number; blocks: Block[] }>('/api/chain/blocks-full', { from, to });
  /** A transaction, confirmed or pending; null when the node knows neither. */
  tx = (hash: string) => this.http.find<TxRecord>(`/api/chain/tx/${hash}`);
  account = (address: string) => this.http.get<AccountRecord>(`/api/chain/account/${address}`);
  search = (q: string) => this.http.get<SearchHit[]>(`/api/chain/search/${encodeURIComponent(q)}`);
  mempool = (p: Page = {}) => this.http.get<MempoolPage>('/api/mempool', { ...p });
  supply = () => this.http.get<Record<string, unknown>>('/api/tokenomics/supply');

  // ---- the AI economy ----------------------------------------------------------------------

  tasks = (p: Page & { status?: string } = {}) => this.http.get<{ tasks: TaskSummary[]; total: number }>('/api/chain/tasks', { ...p });
  task = (id: string) => this.http.find<TaskPipeline>(`/api/chain/task/${encodeURIComponent(id)}`);
  /** Runs with `status`, oldest first: a page, or (the older form) just a limit. */
  runsByStatus = (status: string, p: Page | number = {}) =>
    this.http.get<{ status: string; count: number; runs: RunRecord[] }>(
      `/api/agent/v6/by-status/${status}`,
      typeof p === 'number' ? { limit: p } : { ...p },
    );
  run = (id: string) => this.http.find<RunRecord>(`/api/agent/v6/run/${id}`);
  nfts = (p: Page = {}) => this.http.get<{ total: number; items: ArtNft[] }>('/api/nft', { ...p });
  nft = (tokenId: string) => this.http.find<ArtNft>(`/api/nft/${tokenId}`);
  /** The URL of an art NFT's SVG. */
  nftSvgUrl = (tokenId: string) => this.url(`/api/nft/${tokenId}/svg`);
  /** Image or audio NFTs, newest first. Before its fork: OmbraApiError 403. */
  mediaNfts = (kind: 'image' | 'audio', p: Page = {}) => this.http.get<{ total: number; items: MediaNft[] }>(`/api/${kind}`, { ...p });
  /** An image or audio NFT record; null when unknown (404). Before its fork: OmbraApiError 403. */
  mediaNft = (kind: 'image' | 'audio', tokenId: string) => this.http.find<MediaNft>(`/api/${kind}/${tokenId}`);
  /** The URL of an image or audio NFT's file. */
  mediaFileUrl = (kind: 'image' | 'audio', tokenId: string) => this.url(`/api/${kind}/${tokenId}/file`);

  // ---- the web drive ----------------------------------------------------------------------

  /** A site with its releases, newest first; null when unknown. */
  webSite = (siteId: string, p: Page = {}) =>
    this.http.find<SiteReleases>(`/api/web/site/${encodeURIComponent(siteId)}/releases`, { ...p });
  /** A drive file's header and upload status; null when no INIT named it. */
  webFile = (fileId: string) => this.http.find<FileInfo>(`/api/web/file/${fileId}`);
  /** A release with its files' chunks; null when unknown. */
  webBundle = (releaseId: string) => this.http.find<Bundle>(`/api/web/release/${encodeURIComponent(releaseId)}/bundle`);
  /** The active release of an alias with its files' chunks; null when unknown or not active. */
  webAliasBundle = (alias: string) => this.http.find<Bundle>(`/api/web/alias/${encodeURIComponent(alias)}/bundle`);
  /** The URL of a drive's page: the alias's active release at `path`. */
  webPageUrl = (alias: string, path = '/') => this.url(`/web/${alias}${path}`);

  // ---- writes and streams ------------------------------------------------------------------

  /** Submits a signed transaction (POST /api/chain/tx). */
  submit = (tx: WireTx) => this.http.json<Submitted>('POST', '/api/chain/tx', tx);

  /** Follows the chain's live events with resume; resolves when stopped (0) or refused (1). */
  subscribe(opts: SubscribeOptions): Promise<SubscribeEnd> {
    return subscribe(this.http, opts);
  }

  /** Resolves with a transaction once it is confirmed, polling every `everyMs` until `timeoutMs`. */
  async waitForConfirmation(hash: string, timeoutMs = 60_000, everyMs = 250): Promise<TxRecord & { status: 'confirmed' }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const t = await this.tx(hash);
      if (t?.status === 'confirmed') return t;
      if (Date.now() >= deadline)
        throw new Error(
          `not confirmed after ${Math.round(timeoutMs / 1000)} s (status ${t?.status ?? 'unknown'}): check GET /api/chain/tx/${hash}`,
        );
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}
