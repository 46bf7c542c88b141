// NFTs: galleries of art (SVG), image and audio NFTs, all or one owner's, paged; and each NFT's
// page with its artwork, image or audio and its record (times in UTC, durations, pixels, Hz).
// An SVG is shown through <img>: scripts inside an SVG image never run.
import { type Components, OmbraApiError, type OmbraClient } from '../../client/browser.ts';
import { type Field, duration, fields, fullId, idLink, pageOf, section, utc } from './format.ts';
import { el } from './dom.ts';
import { pageNumber, pager, splitArg, PAGE_SIZE } from './paging.ts';

const HASH = /^[0-9a-fA-F]{64}$/;
const ADDRESS = /^ox[0-9a-fA-F]{40}$/;
type Kind = 'art' | 'image' | 'audio';
/** Each kind's name and the page of one of its tokens. */
const KINDS: Readonly<Record<Kind, { title: string; page: string }>> = {
  art: { title: 'Art NFTs', page: 'nft' },
  image: { title: 'Image NFTs', page: 'image' },
  audio: { title: 'Audio NFTs', page: 'audio' },
};
const kindOf = (k: string): Kind => (k === 'image' || k === 'audio' ? k : 'art');
/** A token with its kind. */
type Token =
  | { kind: 'art'; n: Components['ArtNft'] }
  | { kind: 'image'; n: Components['ImageNft'] }
  | { kind: 'audio'; n: Components['AudioNft'] };

/** "Not active yet" for a read refused before its fork; other errors go on. */
function notActive(e: unknown, what: string): HTMLElement {
  if (e instanceof OmbraApiError && e.status === 403)
    return el('p', { class: 'muted' }, `${what} are not active on this chain yet (${e.message}).`);
  throw e;
}

/** A page of tokens of `kind` (`owner`'s only, when given), newest first, with how many there are. */
async function tokensOf(
  client: OmbraClient,
  kind: Kind,
  owner: string | null,
  p: { limit: number; offset: number },
): Promise<{ tokens: Token[]; total: number }> {
  const address = { address: owner ?? '' };
  if (kind === 'art') {
    const r = owner ? await client.read('getApiNftOwnerAddress', address, p) : await client.read('getApiNft', {}, p);
    return { tokens: r.items.map((n) => ({ kind, n })), total: 'count' in r ? r.count : r.total };
  }
  if (kind === 'image') {
    const r = owner ? await client.read('getApiImageOwnerAddress', address, p) : await client.read('getApiImage', {}, p);
    return { tokens: r.items.map((n) => ({ kind, n })), total: 'count' in r ? r.count : r.total };
  }
  const r = owner ? await client.read('getApiAudioOwnerAddress', address, p) : await client.read('getApiAudio', {}, p);
  return { tokens: r.items.map((n) => ({ kind, n })), total: 'count' in r ? r.count : r.total };
}

/** The media of an NFT: an SVG or image file, or an audio player. */
function mediaOf(client: OmbraClient, t: Token, thumb = false): HTMLElement {
  const { tokenId } = t.n;
  if (t.kind === 'art')
    return el('img', {
      src: client.nftSvgUrl(tokenId),
      alt: `Artwork of NFT ${tokenId.slice(0, 12)}`,
      loading: thumb ? 'lazy' : undefined,
    });
  const src = client.mediaFileUrl(t.kind, tokenId);
  if (t.kind === 'image')
    return el('img', {
      src,
      alt: `Image NFT ${tokenId.slice(0, 12)}, ${t.n.width} × ${t.n.height} px`,
      loading: thumb ? 'lazy' : undefined,
    });
  return el('audio', {
    src,
    controls: true,
    preload: thumb ? 'none' : 'metadata',
    'aria-label': `Audio NFT ${tokenId.slice(0, 12)}, ${duration(t.n.durationMs)}`,
  });
}

export async function galleryPage(client: OmbraClient, arg: string) {
  const [k, query] = splitArg(arg);
  const kind = kindOf(k);
  const o = query.get('owner') ?? '';
  const owner = ADDRESS.test(o) ? o.toLowerCase() : null;
  const page = pageNumber(query);
  const tabs = el(
    'nav',
    { class: 'tabs', 'aria-label': 'NFT kinds' },
    ...Object.entries(KINDS).map(([key, v]) =>
      el('a', { href: `#/gallery/${key}${owner ? `?owner=${owner}` : ''}`, 'aria-current': key === kind ? 'page' : undefined }, v.title),
    ),
  );
  const title = owner ? [`${KINDS[kind].title} of `, el('span', { class: 'mono id' }, owner)] : KINDS[kind].title;
  let body: HTMLElement;
  try {
    const { tokens, total } = await tokensOf(client, kind, owner, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
    const cards = tokens.map((t) =>
      el(
        'li',
        { class: 'tile' },
        el('div', { class: 'media' }, mediaOf(client, t, true)),
        el('a', { href: `#/${KINDS[kind].page}/${t.n.tokenId}`, class: 'mono', title: t.n.tokenId }, `${t.n.tokenId.slice(0, 12)}…`),
        el(
          'span',
          { class: 'muted' },
          t.kind === 'image' ? `${t.n.width} × ${t.n.height} px` : t.kind === 'audio' ? duration(t.n.durationMs) : utc(t.n.mintedAt),
        ),
      ),
    );
    body = el(
      'div',
      {},
      pager(`gallery/${kind}`, query, page, tokens.length, total),
      cards.length ? el('ul', { class: 'gallery' }, ...cards) : el('p', { class: 'muted' }, 'No NFTs of this kind yet.'),
    );
  } catch (e) {
    body = notActive(e, KINDS[kind].title);
  }
  return pageOf(title, tabs, section(KINDS[kind].title, body));
}

/** The fields of an NFT record. */
function tokenFields(t: Token): HTMLElement {
  const n = t.n;
  const media: Field[] =
    t.kind === 'art'
      ? []
      : [
          ['Format', t.n.format],
          ['Blob', el('a', { href: `/api/social/blob/${t.n.blobId}`, class: 'mono id' }, t.n.blobId)],
          t.kind === 'image'
            ? ['Size', `${t.n.width.toLocaleString('en-US')} × ${t.n.height.toLocaleString('en-US')} px`]
            : ['Duration', duration(t.n.durationMs)],
          t.kind === 'audio' && ['Sample rate', `${t.n.sampleRate.toLocaleString('en-US')} Hz`],
        ];
  return fields('Token', [
    ['Token id', fullId(n.tokenId, null, 'token id')],
    ['Owner', fullId(n.owner, `address/${n.owner}`, 'owner address')],
    ['Task', idLink(`task/${n.taskId}`, n.taskId, 16)],
    ['Miner', fullId(n.minerId, `miner/${n.minerId}`, 'miner id')],
    ['Minted', utc(n.mintedAt)],
    ['Block', el('a', { href: `#/block/${n.blockIndex}` }, `#${n.blockIndex}`)],
    ...media,
  ]);
}

/** An art NFT with its SVG. */
export async function nftPage(client: OmbraClient, arg: string) {
  const [id] = splitArg(arg);
  if (!HASH.test(id)) return null;
  let n: Components['ArtNft'] | null;
  try {
    n = await client.nft(id.toLowerCase());
  } catch (e) {
    return pageOf('Art NFT', notActive(e, 'Art NFTs'));
  }
  if (!n) return null;
  const t: Token = { kind: 'art', n };
  return pageOf(
    ['Art NFT ', el('span', { class: 'mono id' }, n.tokenId)],
    el('p', {}, el('a', { href: '#/gallery/art' }, 'All art NFTs')),
    section('Artwork', el('div', { class: 'media' }, mediaOf(client, t))),
    section('Token', tokenFields(t)),
  );
}

/** An image or audio NFT: its media (or why it cannot be shown) and its record. */
export async function mediaPage(client: OmbraClient, kind: 'image' | 'audio', arg: string) {
  const [id] = splitArg(arg);
  if (!HASH.test(id)) return null;
  const label = kind === 'image' ? 'Image NFT' : 'Audio NFT';
  const tokenId = id.toLowerCase();
  let t: Token | null;
  try {
    if (kind === 'image') {
      const n = await client.find('getApiImageTokenId', { tokenId });
      t = n && { kind, n };
    } else {
      const n = await client.find('getApiAudioTokenId', { tokenId });
      t = n && { kind, n };
    }
  } catch (e) {
    return pageOf(label, notActive(e, `${label}s`));
  }
  if (!t) return null;
  const media = mediaOf(client, t);
  const holder = el('div', { class: 'media' }, media);
  media.addEventListener('error', () =>
    holder.replaceChildren(el('p', { class: 'error' }, `The ${kind} file is not available from this node.`)),
  );
  return pageOf(
    [`${label} `, el('span', { class: 'mono id' }, t.n.tokenId)],
    el('p', {}, el('a', { href: `#/gallery/${kind}` }, `All ${kind} NFTs`)),
    section(kind === 'image' ? 'Image' : 'Audio', holder),
    section('Token', tokenFields(t)),
  );
}
