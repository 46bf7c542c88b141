// The explorer's pages by route (`#/<name>/<argument>`), and search: one hit opens its page,
// several are listed with what each one is. Each page answers an element, or null when the
// thing does not exist (the shell then says so).
import type { OmbraClient, SearchHit } from '../../client/browser.ts';
import { dmsPage, followersPage, followsPage, intentPage, queuePage } from './accountSocialPages.ts';
import { addressPage } from './addressPage.ts';
import { runPage, runsPage, taskPage, tasksPage } from './agentPages.ts';
import { conversationPage, conversationsPage } from './chatPages.ts';
import { accountsPage, blockPage, blocksPage, mempoolPage } from './chainPages.ts';
import { txPage, txsPage } from './txPages.ts';
import { el } from './dom.ts';
import { aliasPage, filePage, releasePage, sitePage, sitesPage } from './drivePages.ts';
import { badge, dataTable, pageOf } from './format.ts';
import { leaderboardPage, minerPage, minersPage } from './minerPages.ts';
import { galleryPage, mediaPage, nftPage } from './nftPages.ts';
import { statsPage } from './statsPage.ts';
import { feedPage, postPage, postsPage, profilePage } from './socialPages.ts';

const NFT_PAGES = { art: 'nft', image: 'image', audio: 'audio' } as const;
const enc = encodeURIComponent;

/** The page a search hit opens, and how it is described in a list of hits; null for a kind this explorer has no page for. */
export function hitTarget(h: SearchHit): [href: string, label: string] | null {
  switch (h.type) {
    case 'block':
      return [`block/${h.data.index}`, `Block #${h.data.index}`];
    case 'tx':
      return [`tx/${h.data.hash}`, `Transaction ${h.data.type ?? ''}`];
    case 'address':
      return [`address/${h.data.address}`, 'Address'];
    case 'task':
      return [`task/${enc(h.data.taskId)}`, `Task (${h.data.taskType ?? 'task'})`];
    case 'run':
      return [`run/${h.data.agentRunId}`, 'Agent run'];
    case 'conversation':
      return [`conversation/${h.data.conversationId}`, 'Conversation'];
    case 'nft':
      return [`${NFT_PAGES[h.data.kind]}/${h.data.tokenId}`, `${h.data.kind} NFT`];
    case 'post':
      return [`post/${enc(h.data.postId)}`, 'Post'];
    case 'profile':
      return [`profile/${h.data.address}`, `Profile ${h.data.displayName ?? ''}`];
    case 'site':
      return [`site/${enc(h.data.siteId)}`, `Site ${h.data.name ?? ''}`];
    case 'alias':
      return [`alias/${h.data.alias}`, 'Web alias'];
    case 'release':
      return [`release/${enc(h.data.releaseId)}`, 'Release'];
    case 'file':
      return [`file/${h.data.fileId}`, `Drive file ${h.data.path ?? ''}`];
    case 'miner':
      return [`miner/${h.data.id}`, `Miner ${h.data.name ?? ''}`];
    case 'dm':
      return [`dms/${h.data.from}`, 'Direct message (its sender’s messages)'];
    default:
      return null;
  }
}

/** Search: one hit opens its page; several are listed. */
async function searchPage(client: OmbraClient, q: string, go: Go): Promise<HTMLElement | null> {
  const query = q.trim();
  const hits = query ? await client.search(query) : [];
  const targets = hits.flatMap((h) => {
    const t = hitTarget(h);
    return t ? [{ h, href: t[0], label: t[1] }] : [];
  });
  if (targets.length === 1) {
    go(targets[0].href, true);
    return null;
  }
  return pageOf(
    `Search: ${query}`,
    targets.length
      ? dataTable(
          'Search results',
          ['kind', 'result'],
          targets.map(({ h, href, label }) => [
            badge(h.type),
            el('a', { href: `#/${href}` }, `${label.trim()} · ${href.split('/').slice(1).join('/')}`),
          ]),
        )
      : el(
          'p',
          { class: 'muted' },
          'Nothing found. Search takes a height, a hash or id or its first 2+ hex characters, an address or its start (Ombra addresses start with ox; 0x… and bare hex are read as ox…), a task, post, site or release id, an alias, or the start of a profile or miner name.',
        ),
  );
}

/** Opens an explorer page by its path (`replace` keeps the current entry out of the history). */
export type Go = (path: string, replace?: boolean) => void;
/** A page by its route argument: its element, or null when what it shows does not exist. */
export type Page = (arg: string) => Promise<HTMLElement | null>;

/** Every page by its route name: `(argument) => element | null`. */
export function explorerPages(client: OmbraClient, go: Go): Readonly<Record<string, Page>> {
  return {
    block: (a) => blockPage(client, a),
    blocks: (a) => blocksPage(client, a),
    tx: (a) => txPage(client, a),
    txs: (a) => txsPage(client, a),
    mempool: (a) => mempoolPage(client, a),
    accounts: (a) => accountsPage(client, a),
    address: (a) => addressPage(client, a),
    task: (a) => taskPage(client, a),
    tasks: (a) => tasksPage(client, a),
    run: (a) => runPage(client, a),
    runs: (a) => runsPage(client, a),
    conversation: (a) => conversationPage(client, a),
    conversations: (a) => conversationsPage(client, a),
    nft: (a) => nftPage(client, a),
    image: (a) => mediaPage(client, 'image', a),
    audio: (a) => mediaPage(client, 'audio', a),
    gallery: (a) => galleryPage(client, a),
    feed: (a) => feedPage(client, a),
    post: (a) => postPage(client, a),
    posts: (a) => postsPage(client, a),
    profile: (a) => profilePage(client, a),
    follows: (a) => followsPage(client, a),
    followers: (a) => followersPage(client, a),
    queue: (a) => queuePage(client, a),
    intent: (a) => intentPage(client, a),
    dms: (a) => dmsPage(client, a),
    sites: (a) => sitesPage(client, a),
    site: (a) => sitePage(client, a),
    release: (a) => releasePage(client, a),
    file: (a) => filePage(client, a),
    alias: (a) => aliasPage(client, a),
    miners: (a) => minersPage(client, a),
    miner: (a) => minerPage(client, a),
    leaderboard: () => leaderboardPage(client),
    stats: (a) => statsPage(client, a),
    search: (q) => searchPage(client, q, go),
  };
}
