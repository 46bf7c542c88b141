/**
 * The definitions of the NFT routes: art NFTs (/api/nft, fork 3), image NFTs (/api/image,
 * fork 4) and audio NFTs (/api/audio, fork 5). Every kind has the same list, owner and record
 * routes (`tokenEndpoints`); art adds its SVG, image and audio their file.
 */
import { arr, address, keyedList, obj, type Schema, uint } from '../../../queries/schemas/shapes.ts';
import { ref } from '../../../queries/schemas/records.ts';
import { endpoints } from '../../endpoints/endpoint.ts';
import { addressParam, CONTENT_HEADERS, hashParam, paging } from '../../endpoints/params.ts';
import { EXAMPLE_IDS } from '../../endpoints/examples.ts';

const tag = 'nft';
const tokenId = (example: string) => ({ tokenId: hashParam('token id', 'tokenId', example) });

/** The list, owner and record routes of one kind of token under `base`. */
function tokenEndpoints<T>(
  base: string,
  record: Schema<T>,
  says: { list: string; owner: string; one: string },
  errors: number[],
  token: string,
) {
  return endpoints({
    list: {
      method: 'GET',
      path: base,
      tag,
      summary: says.list,
      query: paging(100),
      ok: { schema: obj({ total: uint, items: arr(record) }) },
      errors,
    },
    owner: {
      method: 'GET',
      path: `${base}/owner/:address`,
      tag,
      summary: says.owner,
      params: { address: addressParam() },
      query: paging(100),
      ok: { schema: keyedList('owner', address, 'items', record) },
      errors,
    },
    token: {
      method: 'GET',
      path: `${base}/:tokenId`,
      tag,
      summary: says.one,
      params: tokenId(token),
      ok: { schema: record },
      errors: [...errors, 404],
    },
  });
}

/** The routes of image (fork 4) or audio (fork 5) NFTs. */
/** The record of each media kind. */
const MEDIA_RECORD = { image: 'ImageNft', audio: 'AudioNft' } as const;

function mediaEndpoints<K extends 'image' | 'audio'>(kind: K, fork: number) {
  const gate = `before fork ${fork}: 403 FORK_NOT_ACTIVE`;
  const record = ref(MEDIA_RECORD[kind]);
  const types = kind === 'image' ? 'image/png, image/jpeg or image/webp' : 'audio/wav, audio/mpeg or audio/ogg';
  const base = `/api/${kind}`;
  const tokens = tokenEndpoints(
    base,
    record,
    {
      list: `${kind} NFTs, newest first (${gate})`,
      owner: `An owner's ${kind} NFTs, newest first (count: all of them)`,
      one: `A ${kind} NFT`,
    },
    [403],
    EXAMPLE_IDS[kind],
  );
  return {
    ...tokens,
    file: endpoints({
      file: {
        method: 'GET',
        path: `${base}/:tokenId/file`,
        tag,
        summary: `The ${kind} file of an NFT, byte for byte the blob it was minted from`,
        description: `Content-Type ${types} (from the NFT's format); Cache-Control "public, max-age=31536000, immutable"; ETag = the blob's SHA-256 in quotes; If-None-Match with it answers 304 without a body.`,
        params: tokenId(EXAMPLE_IDS[kind]),
        headers: CONTENT_HEADERS,
        ok: { contentType: kind === 'image' ? 'image/*' : 'audio/*', description: 'the media bytes' },
        errors: [403, 404, 416],
      },
    }).file,
  };
}

const art = tokenEndpoints(
  '/api/nft',
  ref('ArtNft'),
  { list: 'Art NFTs, newest first (fork 3)', owner: "An owner's art NFTs", one: 'An art NFT' },
  [403],
  EXAMPLE_IDS.art,
);

/** The routes of each media kind, by kind (./nftRoutes.ts serves both). */
const MEDIA_ENDPOINTS = { image: mediaEndpoints('image', 4), audio: mediaEndpoints('audio', 5) };

/** Art NFT routes. */
const NFT_ENDPOINTS = endpoints({
  getApiNft: art.list,
  getApiNftOwnerAddress: art.owner,
  getApiNftTokenIdSvg: {
    method: 'GET',
    path: '/api/nft/:tokenId/svg',
    tag,
    summary: "An art NFT's SVG (served under a sandboxing CSP that allows only inline styles)",
    params: tokenId(EXAMPLE_IDS.art),
    ok: { contentType: 'image/svg+xml', description: 'the minted SVG' },
    errors: [403, 404],
  },
  getApiNftTokenId: art.token,
});

/** Every NFT route under its operation id. */
export const ALL_NFT_ENDPOINTS = {
  ...NFT_ENDPOINTS,
  getApiImage: MEDIA_ENDPOINTS.image.list,
  getApiImageOwnerAddress: MEDIA_ENDPOINTS.image.owner,
  getApiImageTokenIdFile: MEDIA_ENDPOINTS.image.file,
  getApiImageTokenId: MEDIA_ENDPOINTS.image.token,
  getApiAudio: MEDIA_ENDPOINTS.audio.list,
  getApiAudioOwnerAddress: MEDIA_ENDPOINTS.audio.owner,
  getApiAudioTokenIdFile: MEDIA_ENDPOINTS.audio.file,
  getApiAudioTokenId: MEDIA_ENDPOINTS.audio.token,
};
