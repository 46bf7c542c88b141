// NFTs: galleries of art (SVG), image and audio NFTs, all or one owner's, paged; and each NFT's
// page with its artwork, image or audio and its record (times in UTC, durations, pixels, Hz).
// An SVG is shown through <img>: scripts inside an SVG image never run.
import { OmbraApiError } from '../../client/browser.ts';
import { el } from './dom.ts';
import { duration, fields, fullId, idLink, pageOf, section, utc } from './format.ts';
import { pageNumber, pager, splitArg, PAGE_SIZE } from './paging.ts';

const HASH = /^[0-9a-fA-F]{64}$/;
const ADDRESS = /^ox[0-9a-fA-F]{40}$/;
const KINDS = {
  art: { title: 'Art NFTs', page: 'nft', all: 'getApiNft', owned: 'getApiNftOwnerAddress' },
  image: { title: 'Image NFTs', page: 'image', all: 'getApiImage', owned: 'getApiImageOwnerAddress' },
  audio: { title: 'Audio NFTs', page: 'audio', all: 'getApiAudio', owned: 'getApiAudioOwnerAddress' },
};

/** "Not active yet" for a read refused before its fork; other errors go on. */
function notActive(e, what) {
  if (e instanceof OmbraApiError && e.status === 403)
    return el('p', { class: 'muted' }, `${what} are not active on this chain yet (${e.message}).`);
  throw e;
}

/** The media of an NFT: an SVG or image file, or an audio player. */
function mediaOf(client, kind, n, thumb = false) {
  if (kind === 'art')
    return el('img', {
      src: client.nftSvgUrl(n.tokenId),
      alt: `Artwork of NFT ${n.tokenId.slice(0, 12)}`,
      loading: thumb ? 'lazy' : undefined,
    });
  const src = client.mediaFileUrl(kind, n.tokenId);
  if (kind === 'image')
    return el('img', { src, alt: `Image NFT ${n.tokenId.slice(0, 12)}, ${n.width} × ${n.height} px`, loading: thumb ? 'lazy' : undefined });
  return el('audio', {
    src,
    controls: true,
    preload: thumb ? 'none' : 'metadata',
    'aria-label': `Audio NFT ${n.tokenId.slice(0, 12)}, ${duration(n.durationMs)}`,
  });
}

export async function galleryPage(client, arg) {
  const [k, query] = splitArg(arg);
  const kind = KINDS[k] ? k : 'art';
  const owner = ADDRESS.test(query.get('owner') ?? '') ? query.get('owner').toLowerCase() : null;
  const page = pageNumber(query);
  const tabs = el(
    'nav',
    { class: 'tabs', 'aria-label': 'NFT kinds' },
    ...Object.entries(KINDS).map(([key, v]) =>
      el('a', { href: `#/gallery/${key}${owner ? `?owner=${owner}` : ''}`, 'aria-current': key === kind ? 'page' : undefined }, v.title),
    ),
  );
  const title = owner ? [`${KINDS[kind].title} of `, el('span', { class: 'mono id' }, owner)] : KINDS[kind].title;
  let body;
  try {
    const p = { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE };
    const r = owner ? await client.read(KINDS[kind].owned, { address: owner }, p) : await client.read(KINDS[kind].all, {}, p);
    const total = owner ? r.count : r.total;
    const cards = r.items.map((n) =>
      el(
        'li',
        { class: 'tile' },
        el('div', { class: 'media' }, mediaOf(client, kind, n, true)),
        el('a', { href: `#/${KINDS[kind].page}/${n.tokenId}`, class: 'mono', title: n.tokenId }, `${n.tokenId.slice(0, 12)}…`),
        el(
          'span',
          { class: 'muted' },
          kind === 'image' ? `${n.width} × ${n.height} px` : kind === 'audio' ? duration(n.durationMs) : utc(n.mintedAt),
        ),
      ),
    );
    body = el(
      'div',
      {},
      pager(`gallery/${kind}`, query, page, r.items.length, total),
      cards.length ? el('ul', { class: 'gallery' }, ...cards) : el('p', { class: 'muted' }, 'No NFTs of this kind yet.'),
    );
  } catch (e) {
    body = notActive(e, KINDS[kind].title);
  }
  return pageOf(title, tabs, section(KINDS[kind].title, body));
}

/** The fields of an NFT record. */
function tokenFields(kind, n) {
  return fields('Token', [
    ['Token id', fullId(n.tokenId, null, 'token id')],
    ['Owner', fullId(n.owner, `address/${n.owner}`, 'owner address')],
    ['Task', idLink(`task/${n.taskId}`, n.taskId, 16)],
    ['Miner', fullId(n.minerId, `miner/${n.minerId}`, 'miner id')],
    ['Minted', utc(n.mintedAt)],
    ['Block', el('a', { href: `#/block/${n.blockIndex}` }, `#${n.blockIndex}`)],
    kind !== 'art' && ['Format', n.format],
    kind !== 'art' && ['Blob', el('a', { href: `/api/social/blob/${n.blobId}`, class: 'mono id' }, n.blobId)],
    kind === 'image' && ['Size', `${n.width.toLocaleString('en-US')} × ${n.height.toLocaleString('en-US')} px`],
    kind === 'audio' && ['Duration', duration(n.durationMs)],
    kind === 'audio' && ['Sample rate', `${n.sampleRate.toLocaleString('en-US')} Hz`],
  ]);
}

/** An art NFT with its SVG. */
export async function nftPage(client, arg) {
  const [id] = splitArg(arg);
  if (!HASH.test(id)) return null;
  let n;
  try {
    n = await client.nft(id.toLowerCase());
  } catch (e) {
    return pageOf('Art NFT', notActive(e, 'Art NFTs'));
  }
  if (!n) return null;
  return pageOf(
    ['Art NFT ', el('span', { class: 'mono id' }, n.tokenId)],
    el('p', {}, el('a', { href: '#/gallery/art' }, 'All art NFTs')),
    section('Artwork', el('div', { class: 'media' }, mediaOf(client, 'art', n))),
    section('Token', tokenFields('art', n)),
  );
}

/** An image or audio NFT: its media (or why it cannot be shown) and its record. */
export async function mediaPage(client, kind, arg) {
  const [id] = splitArg(arg);
  if (!HASH.test(id)) return null;
  const label = kind === 'image' ? 'Image NFT' : 'Audio NFT';
  let n;
  try {
    n = await client.mediaNft(kind, id.toLowerCase());
  } catch (e) {
    return pageOf(label, notActive(e, `${label}s`));
  }
  if (!n) return null;
  const media = mediaOf(client, kind, n);
  const holder = el('div', { class: 'media' }, media);
  media.addEventListener('error', () =>
    holder.replaceChildren(el('p', { class: 'error' }, `The ${kind} file is not available from this node.`)),
  );
  return pageOf(
    [`${label} `, el('span', { class: 'mono id' }, n.tokenId)],
    el('p', {}, el('a', { href: `#/gallery/${kind}` }, `All ${kind} NFTs`)),
    section(kind === 'image' ? 'Image' : 'Audio', holder),
    section('Token', tokenFields(kind, n)),
  );
}
