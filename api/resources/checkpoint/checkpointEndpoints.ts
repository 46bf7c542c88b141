/** The definitions of the checkpoint routes: what a node offers new nodes to start from (docs/checkpoints.md). */
import { endpoints } from '../../endpoints/endpoint.ts';
import { hashParam } from '../../endpoints/params.ts';
import { hash, obj, str, uint } from '../../../queries/schemas/shapes.ts';

/** Checkpoint routes. */
export const CHECKPOINT_ENDPOINTS = endpoints({
  getApiCheckpoint: {
    method: 'GET',
    path: '/api/checkpoint',
    tag: 'operator',
    summary: 'The checkpoint this node offers: height, block hash, SHA-256 digest, size and where to fetch it',
    description:
      'Built by the node on its own schedule (after start, then once the head is 1,000 blocks past it and 10 minutes have passed), never by a request: ' +
      'until the first is built, and on a node whose own state is not verified (started from a checkpoint still verifying), it answers 503 `CHECKPOINT_NOT_READY`. ' +
      'Start a node from it with `ombra start --checkpoint-url URL --checkpoint-digest DIGEST`, having checked the digest against a source you trust.',
    ok: { schema: obj({ height: uint, hash, digest: hash, bytes: uint, url: str }) },
    errors: [404, 503],
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
