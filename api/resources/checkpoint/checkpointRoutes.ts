/**
 * GET /api/checkpoint and GET /api/checkpoint/:digest: the checkpoint a node offers others to
 * start from (checkpoint/checkpointPublisher.ts), its file streamed from disk. A request never builds
 * one: it reads what the node built on its schedule, or answers 503 CHECKPOINT_NOT_READY (none
 * yet, or this node's own state is not verified). Rate limits apply as to every route.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { CheckpointPublisher } from '../../../checkpoint/checkpointPublisher.ts';
import { CHECKPOINT_ENDPOINTS as E } from './checkpointEndpoints.ts';
import { resource } from '../../endpoints/endpoint.ts';
import { notFound } from '../../errors.ts';
import { streamed } from '../../streamedAnswer.ts';

const NOT_READY =
  'this node offers no checkpoint yet: it builds one on its own schedule once its own state is verified (started from genesis, or its checkpoint verified)';

/** Checkpoint routes over the node's publisher (without one, as in an app built for tests, both answer 404). */
export function checkpointRoutes(publisher: CheckpointPublisher | undefined): Hono {
  const app = new Hono();
  return resource(
    E,
    {
      getApiCheckpoint: async (c) => {
        if (!publisher) notFound('a checkpoint on offer (this node offers none)');
        const made = publisher.offered();
        if (!made) {
          c.header('Retry-After', '60');
          return c.json({ error: NOT_READY, code: 'CHECKPOINT_NOT_READY' }, 503);
        }
        return c.json({
          height: made.height,
          hash: made.hash,
          digest: made.digest,
          bytes: made.bytes,
          url: `/api/checkpoint/${made.digest}`,
        });
      },
      getApiCheckpointDigest: (c, { params: { digest } }) => {
        const path = publisher?.fileOf(digest) ?? notFound(`checkpoint ${digest}`);
        const body = Readable.toWeb(createReadStream(path)) as ReadableStream;
        return streamed(
          c.body(body, 200, {
            'Content-Type': 'application/gzip',
            'Content-Length': String(statSync(path).size),
            'Cache-Control': 'no-cache',
          }),
        );
      },
    },
    { app },
  );
}
