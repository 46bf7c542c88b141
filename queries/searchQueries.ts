/**
 * The explorer's search: every id kind the chain has, each hit typed (`type`) with a brief of
 * what it found. Each form of the query (queries/searchQuery.ts) is a point read of a record or
 * an index row; prefixes (addresses, names) are one bounded range read: nothing scans.
 */
import { DM_IDS, POSTS } from '../core/tx/social/socialPost.ts';
import { TASKS } from '../core/tx/task/taskRecord.ts';
import { WEB_ALIASES } from '../core/tx/web/webRecords.ts';
import type { ReadPorts } from '../node/ports.ts';
import { addressHistoryProjection, historyCountRow, txIndexProjection } from '../projections/chainIndex.ts';
import { nameIndexProjection, namedRow, namePrefixRange } from '../projections/nameIndex.ts';
import { blockSummary } from './blockReads.ts';
import type { SearchQuery } from './searchQuery.ts';
import type { AgentQueries } from './agentQueries.ts';
import type { ChainQueries } from './chainQueries.ts';
import type { MediaNftQueries } from './mediaNftQueries.ts';
import type { NftQueries } from './nftQueries.ts';
import type { SocialQueries } from './socialQueries.ts';
import { type TaskQueries, taskSummary } from './taskQueries.ts';
import type { WebQueries } from './webQueries.ts';
import type { SearchHit } from './schemas/searchHits.ts';

export type { SearchHit };

/** The index of the first of sorted `list` not below `key`. */
function firstAtLeast(list: readonly string[], key: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The query objects a search reads. */
// Named one by one (not `Pick<Queries, ...>`): index.ts builds this class, so importing it back would be a circle.
type SearchSources = {
  chain: ChainQueries;
  tasks: TaskQueries;
  agents: AgentQueries;
  nfts: NftQueries;
  media: MediaNftQueries;
  social: SocialQueries;
  web: WebQueries;
};

/** Search over one node's read models. */
export class SearchQueries {
  private readonly ports: ReadPorts;
  private readonly q: SearchSources;
  /** The addresses the genesis funds, sorted (they may have no history). */
  private funded?: string[];

  constructor(ports: ReadPorts, sources: SearchSources) {
    this.ports = ports;
    this.q = sources;
  }

  /** At most `limit` hits for `query`: exact ids first (in the order of SearchHit), then prefixes. */
  async search(query: SearchQuery, limit: number): Promise<SearchHit[]> {
    const hits: SearchHit[] = [];
    const add = (h: SearchHit | undefined) => {
      if (h && hits.length < limit) hits.push(h);
    };
    if (query.height !== undefined) add(await this.block(query.height));
    if (query.hash) for (const h of await this.byHash(query.hash)) add(h);
    if (query.taskId) add(await this.task(query.taskId));
    if (query.address) add(await this.address(query.address));
    if (query.recordId) for (const h of await this.byRecordId(query.recordId)) add(h);
    if (query.alias) add(await this.alias(query.alias));
    if (query.addressPrefix && hits.length < limit) {
      for (const a of await this.addressesWithPrefix(query.addressPrefix, limit - hits.length)) add(await this.address(a));
    }
    if (query.txPrefix && hits.length < limit) {
      for (const hash of await this.txsWithPrefix(query.txPrefix, limit - hits.length)) {
        const tx = await this.q.chain.tx(hash);
        if (tx && !hits.some((h) => h.type === 'tx' && (h.data as { hash?: string }).hash === hash)) add({ type: 'tx', data: tx });
      }
    }
    if (query.namePrefix && hits.length < limit) for (const h of await this.names(query.namePrefix, limit - hits.length)) add(h);
    return hits;
  }

  private async block(height: number): Promise<SearchHit | undefined> {
    const b = await this.q.chain.block(height);
    return b && { type: 'block', data: blockSummary(b) };
  }

  /** Everything a 64-hex id can name. */
  private async byHash(hash: string): Promise<SearchHit[]> {
    const { chain, agents, nfts, media, web } = this.q;
    const [block, tx, run, conversation, art, image, audio, miner, file] = await Promise.all([
      chain.blockByHash(hash),
      chain.tx(hash),
      agents.run(hash),
      agents.conversation(hash),
      nfts.get(hash),
      media.image.get(hash),
      media.audio.get(hash),
      chain.miner(hash),
      web.file(hash),
    ]);
    const out: (SearchHit | undefined)[] = [
      block && { type: 'block', data: blockSummary(block) },
      tx && { type: 'tx', data: tx },
      run && {
        type: 'run',
        data: {
          agentRunId: run.agentRunId,
          conversationId: run.conversationId,
          submitter: run.submitter,
          status: run.status,
          submittedAt: run.submittedAt,
        },
      },
      conversation && { type: 'conversation', data: conversation },
      ...(
        [
          ['art', art],
          ['image', image],
          ['audio', audio],
        ] as const
      ).map(
        ([kind, n]): SearchHit | undefined =>
          n && { type: 'nft', data: { kind, tokenId: n.tokenId, owner: n.owner, mintedAt: n.mintedAt, blockIndex: n.blockIndex } },
      ),
      miner && { type: 'miner', data: { id: miner.id, name: miner.name, address: miner.address } },
      file && {
        type: 'file',
        data: {
          fileId: file.fileId,
          siteId: file.siteId,
          path: file.path,
          contentType: file.contentType,
          totalBytes: file.totalBytes,
          status: file.status,
        },
      },
    ];
    return out.filter((h) => h !== undefined);
  }

  private async task(id: string): Promise<SearchHit | undefined> {
    const t = await this.q.chain.record(TASKS, id);
    return t && { type: 'task', data: taskSummary(t) };
  }

  private async address(address: string): Promise<SearchHit> {
    const a = await this.q.chain.account(address);
    return { type: 'address', data: { address, balance: a.balance.toString(), nonce: a.nonce } };
  }

  /** Posts, sites, releases and DMs, whose ids are chosen by their writers (case kept). */
  private async byRecordId(id: string): Promise<SearchHit[]> {
    const { chain, web } = this.q;
    const [post, site, release, dm] = await Promise.all([chain.record(POSTS, id), web.site(id), web.release(id), chain.record(DM_IDS, id)]);
    const out: (SearchHit | undefined)[] = [
      post && {
        type: 'post',
        data: {
          postId: post.postId,
          author: post.author,
          likeCount: post.likeCount,
          timestamp: post.timestamp,
          blockIndex: post.blockIndex,
        },
      },
      site && {
        type: 'site',
        data: {
          siteId: site.siteId,
          name: site.name,
          owner: site.owner,
          activeReleaseId: site.activeReleaseId ?? null,
          releaseCount: site.releaseCount,
        },
      },
      release && {
        type: 'release',
        data: {
          releaseId: release.releaseId,
          siteId: release.siteId,
          seq: release.seq,
          files: release.manifest.length,
          publishedAt: release.publishedAt,
        },
      },
      dm && { type: 'dm', data: { dmId: id, from: dm.from, blockIndex: dm.blockIndex } },
    ];
    return out.filter((h) => h !== undefined);
  }

  private async alias(alias: string): Promise<SearchHit | undefined> {
    const a = await this.q.chain.record(WEB_ALIASES, alias);
    return a && { type: 'alias', data: { alias: a.alias, siteId: a.siteId, owner: a.owner } };
  }

  /** Up to `limit` confirmed transaction hashes starting with `prefix`, in hash order: one range read of the tx index. */
  private async txsWithPrefix(prefix: string, limit: number): Promise<string[]> {
    const rows = await this.ports.models.readable(txIndexProjection);
    const found: string[] = [];
    for await (const key of rows.keys({ gte: prefix, lt: `${prefix}\uffff`, limit })) if (/^[0-9a-f]{64}$/.test(key)) found.push(key);
    return found;
  }

  /**
   * Up to `limit` addresses starting with `prefix`, in address order: those with history (one
   * range read of the history counts) and those the genesis funded (a sorted list, built once).
   */
  private async addressesWithPrefix(prefix: string, limit: number): Promise<string[]> {
    const rows = await this.ports.models.readable(addressHistoryProjection);
    const found = new Set<string>();
    const from = historyCountRow.key(prefix);
    for await (const key of rows.keys({ gte: from, lt: `${from}\uffff`, limit })) found.add(historyCountRow.idOf(key));
    this.funded ??= Object.keys(this.q.chain.genesis().allocations).sort();
    const first = firstAtLeast(this.funded, prefix);
    for (const a of this.funded.slice(first, first + limit)) if (a.startsWith(prefix)) found.add(a);
    return [...found].sort().slice(0, limit);
  }

  /** Up to `limit` profiles and miners whose name starts with `prefix` (lowercased), in name order: one range read. */
  private async names(prefix: string, limit: number): Promise<SearchHit[]> {
    const rows = await this.ports.models.readable(nameIndexProjection);
    const out: SearchHit[] = [];
    for await (const raw of rows.values({ ...namePrefixRange(prefix), limit })) {
      const n = namedRow(raw);
      if (n.kind === 'profile') out.push({ type: 'profile', data: { address: n.id, displayName: n.name } });
      else {
        const m = await this.q.chain.miner(n.id);
        if (m) out.push({ type: 'miner', data: { id: m.id, name: m.name, address: m.address } });
      }
    }
    return out;
  }
}
