// The explorer's pages by route (`#/<name>/<argument>`), and search: one hit opens its page,
// several are listed with what each one is. Each page answers an element, or null when the
// thing does not exist (the shell then says so).
import { dmsPage, followersPage, followsPage, intentPage, queuePage } from './accountSocialPages.ts';
import { addressPage } from './addressPage.ts';
import { runPage, runsPage, taskPage, tasksPage } from './agentPages.ts';
import { conversationPage, conversationsPage } from './chatPages.ts';
import { accountsPage, blockPage, blocksPage, mempoolPage, txPage, txsPage } from './chainPages.ts';
import { el } from './dom.ts';
import { aliasPage, filePage, releasePage, sitePage, sitesPage } from './drivePages.ts';
import { badge, dataTable, pageOf } from './format.ts';
import { leaderboardPage, minerPage, minersPage } from './minerPages.ts';
import { galleryPage, mediaPage, nftPage } from './nftPages.ts';
import { statsPage } from './statsPage.ts';
import { feedPage, postPage, postsPage, profilePage } from './socialPages.ts';

const NFT_PAGES = { art: 'nft', image: 'image', audio: 'audio' };
const enc = encodeURIComponent;

/** The page a search hit opens, and how it is described in a list of hits. */
export function hitTarget(h) {
  const d = h.data ?? {};
  switch (h.type) {
    case 'block':
      return [`block/${d.index}`, `Block #${d.index}`];
    case 'tx':
      return [`tx/${d.hash}`, `Transaction ${d.type ?? ''}`];
    case 'address':
      return [`address/${d.address}`, 'Address'];
    case 'task':
      return [`task/${enc(d.taskId)}`, `Task (${d.taskType ?? 'task'})`];
    case 'run':
      return [`run/${d.agentRunId}`, 'Agent run'];
    case 'conversation':
      return [`conversation/${d.conversationId}`, 'Conversation'];
    case 'nft':
      return [`${NFT_PAGES[d.kind] ?? 'nft'}/${d.tokenId}`, `${d.kind ?? 'art'} NFT`];
    case 'post':
      return [`post/${enc(d.postId)}`, 'Post'];
    case 'profile':
      return [`profile/${d.address}`, `Profile ${d.displayName ?? ''}`];
    case 'site':
      return [`site/${enc(d.siteId)}`, `Site ${d.name ?? ''}`];
    case 'alias':
      return [`alias/${d.alias}`, 'Web alias'];
    case 'release':
      return [`release/${enc(d.releaseId)}`, 'Release'];
    case 'file':
      return [`file/${d.fileId}`, `Drive file ${d.path ?? ''}`];
    case 'miner':
      return [`miner/${d.id}`, `Miner ${d.name ?? ''}`];
    case 'dm':
      return [`dms/${d.from}`, 'Direct message (its sender’s messages)'];
    default:
      return null;
  }
}

/** Search: one hit opens its page; several are listed. */
async function searchPage(client, q, go) {
  const query = q.trim();
  const hits = query ? await client.search(query) : [];
  const targets = hits.map((h) => [h, hitTarget(h)]).filter(([, t]) => t !== null);
  if (targets.length === 1) {
    go(targets[0][1][0], true);
    return null;
  }
  return pageOf(
    `Search: ${query}`,
    targets.length
      ? dataTable(
          'Search results',
          ['kind', 'result'],
          targets.map(([h, [href, label]]) => [
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

/** Every page by its route name: `(argument) => element | null`. */
export function explorerPages(client, go) {
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
