/** The definitions of the checkpoint routes: what a node offers new nodes to start from (docs/checkpoints.md). */
import { endpoints } from './endpoint.ts';
import { hashParam } from './params.ts';
import { hash, obj, str, uint } from '../openapi/shapes.ts';

/** Checkpoint routes. */
export const CHECKPOINT_ENDPOINTS = endpoints({
  getApiCheckpoint: {
    method: 'GET',
    path: '/api/checkpoint',
    tag: 'operator',
    summary: 'The checkpoint this node offers: height, block hash, SHA-256 digest, size and where to fetch it',
    description:
      'Written on first request and again once the head is 1,000 blocks past it (a few seconds on a large chain; one at a time). ' +
      'Start a node from it with `ombra start --checkpoint-url URL --checkpoint-digest DIGEST`, having checked the digest against a source you trust.',
    ok: { schema: obj({ height: uint, hash, digest: hash, bytes: uint, url: str }) },
    errors: [404],
  },
  getApiCheckpointDigest: {
    method: 'GET',
    path: '/api/checkpoint/:digest',
    tag: 'operator',
    summary: 'A checkpoint file on offer (gzip-compressed NDJSON, docs/checkpoints.md), streamed',
    params: { digest: hashParam('the SHA-256 of the file, as GET /api/checkpoint answers it', 'digest') },
    ok: { contentType: 'application/gzip', description: 'the checkpoint file' },
    errors: [404],
  },
});
