/**
 * `OmbraClient`: typed reads of a node's HTTP API (any GET operation by id, its path and answer
 * type derived from the node's route definitions, and named reads on top), transaction
 * submission and live subscriptions with resume. Browser-safe (the explorer imports it as
 * served by the node); signing lives in `signer.ts`, which needs Node's crypto.
 */
import type { Answers } from '../api/endpoints/index.ts';
import { HttpTransport, type ClientOptions, type Query } from './http.ts';
import { subscribe, type SubscribeEnd, type SubscribeOptions } from './subscribe.ts';
import { type OperationId, type PathParams, type QueryValues, ROUTES } from './routes.ts';
import type { BlockSummary, RunRecord, TaskSummary, TxRecord, WireTx } from './types.ts';
/** The path parameters of an operation, if it has any. */
export type ParamsOf<Id extends OperationId> = Id extends keyof PathParams ? PathParams[Id] : Record<string, never>;
/** The query values of an operation, if it takes any. */
export type QueryOf<Id extends OperationId> = Id extends keyof QueryValues ? QueryValues[Id] : Record<string, never>;
/** The operations read with GET. */
export type ReadId = { [K in OperationId]: (typeof ROUTES)[K][0] extends 'GET' ? K : never }[OperationId];

/**
 * The path of operation `id` (client/routes.ts, derived from the node's route definitions) with
 * its parameters filled in, each percent-encoded.
 */
export function pathOf<Id extends OperationId>(id: Id, params: ParamsOf<Id>): string {
  const values = params as Record<string, string | number>;
  return ROUTES[id][1].replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(String(values[name])));
}

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

  /** Any GET operation by id (see client/routes.ts), its answer typed. */
  read<Id extends ReadId>(id: Id, params: ParamsOf<Id>, query?: QueryOf<Id>): Promise<Answers[Id]> {
    return this.http.get<Answers[Id]>(pathOf(id, params), query as Query | undefined);
  }

  /** Any GET operation by id; null when the node answers 404 NOT_FOUND. */
  find<Id extends ReadId>(id: Id, params: ParamsOf<Id>, query?: QueryOf<Id>): Promise<Answers[Id] | null> {
    return this.http.find<Answers[Id]>(pathOf(id, params), query as Query | undefined);
  }

  // ---- chain ------------------------------------------------------------------------------

  health = () => this.read('getApiHealth', {});
  height = () => this.read('getApiChainHeight', {});
  params = () => this.read('getApiChainParams', {});
  stats = () => this.read('getApiChainStats', {});
  block = (index: number) => this.find('getApiChainBlockIndex', { index });
  blockByHash = (hash: string) => this.find('getApiChainBlockHashHash', { hash });
  /** Block summaries, newest first. */
  // Without from/to the answer is always the page of summaries (the other member of its union).
  blocks = (p: Page = {}) => this.read('getApiChainBlocks', {}, { ...p }) as Promise<{ blocks: BlockSummary[]; total: number }>;
  /** Full blocks `from..to` (at most 500). */
  blocksRange = (from: number, to: number) => this.read('getApiChainBlocksFull', {}, { from, to });
  /** A transaction, confirmed or pending; null when the node knows neither. */
  tx = (hash: string) => this.find('getApiChainTxHash', { hash });
  account = (address: string) => this.read('getApiChainAccountAddress', { address });
  search = (q: string) => this.read('getApiChainSearchQ', { q });
  mempool = (p: Page = {}) => this.read('getApiMempool', {}, { ...p });
  supply = () => this.read('getApiTokenomicsSupply', {});

  // ---- the AI economy ----------------------------------------------------------------------

  tasks = (p: Page & { status?: TaskSummary['status'] } = {}) => this.read('getApiChainTasks', {}, { ...p });
  task = (id: string) => this.find('getApiChainTaskId', { id });
  /** Runs with `status`, oldest first: a page, or (the older form) just a limit. */
  runsByStatus = (status: RunRecord['status'], p: Page | number = {}) =>
    this.read('getApiAgentV6ByStatusStatus', { status }, typeof p === 'number' ? { limit: p } : { ...p });
  run = (id: string) => this.find('getApiAgentV6RunAgentRunId', { agentRunId: id });
  nfts = (p: Page = {}) => this.read('getApiNft', {}, { ...p });
  nft = (tokenId: string) => this.find('getApiNftTokenId', { tokenId });
  /** The URL of an art NFT's SVG. */
  nftSvgUrl = (tokenId: string) => this.url(pathOf('getApiNftTokenIdSvg', { tokenId }));
  /** Image or audio NFTs, newest first. Before its fork: OmbraApiError 403. */
  mediaNfts = (kind: 'image' | 'audio', p: Page = {}) => this.read(kind === 'image' ? 'getApiImage' : 'getApiAudio', {}, { ...p });
  /** An image or audio NFT record; null when unknown (404). Before its fork: OmbraApiError 403. */
  mediaNft = (kind: 'image' | 'audio', tokenId: string) =>
    this.find(kind === 'image' ? 'getApiImageTokenId' : 'getApiAudioTokenId', { tokenId });
  /** The URL of an image or audio NFT's file. */
  mediaFileUrl = (kind: 'image' | 'audio', tokenId: string) =>
    this.url(pathOf(kind === 'image' ? 'getApiImageTokenIdFile' : 'getApiAudioTokenIdFile', { tokenId }));

  // ---- the web drive ----------------------------------------------------------------------

  /** A site with its releases, newest first; null when unknown. */
  webSite = (siteId: string, p: Page = {}) => this.find('getApiWebSiteSiteIdReleases', { siteId }, { ...p });
  /** A drive file's header and upload status; null when no INIT named it. */
  webFile = (fileId: string) => this.find('getApiWebFileFileId', { fileId });
  /** A release with its files' chunks; null when unknown. */
  webBundle = (releaseId: string) => this.find('getApiWebReleaseReleaseIdBundle', { releaseId });
  /** The active release of an alias with its files' chunks; null when unknown or not active. */
  webAliasBundle = (alias: string) => this.find('getApiWebAliasAliasBundle', { alias });
  /** The URL of a drive's page: the alias's active release at `path`. */
  webPageUrl = (alias: string, path = '/') => this.url(`${pathOf('getWebAlias', { alias })}${path}`);

  // ---- writes and streams ------------------------------------------------------------------

  /** Submits a signed transaction (POST /api/chain/tx). */
  submit = (tx: WireTx) => this.http.json<Answers['postApiChainTx']>('POST', pathOf('postApiChainTx', {}), tx);

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
