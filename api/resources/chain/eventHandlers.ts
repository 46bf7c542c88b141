/**
 * The SSE endpoints: GET /api/chain/events (hello, block, tx, ping, reorg; resumable with
 * Last-Event-ID or ?fromHeight) and GET /api/mempool/events (hello, snapshot).
 */
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { CHAIN_ENDPOINTS as E } from './chainEndpoints.ts';
import type { Handlers } from '../../endpoints/endpoint.ts';
import { ChainError } from '../../../core/errors.ts';
import type { ApiDeps } from '../../context.ts';
import { ChainEventStream, type ResumePoint } from '../../streams/chainEventStream.ts';
import { MempoolEventStream } from '../../streams/mempoolEventStream.ts';
import type { StreamHub } from '../../streams/streamHub.ts';
import type { Destroyable, SseStream } from '../../streams/sseStream.ts';

/** The API's dependencies plus the stream hub. */
export type StreamDeps = ApiDeps & { streams: StreamHub };

const HEIGHT = /^[0-9]{1,15}$/;
/** A block frame's id: `<height>:<hash>` (a bare height, the older form, is still taken). */
const CURSOR = /^([0-9]{1,15})(?::([0-9a-f]{64}))?$/;

/**
 * Where a client resumes: after the block its Last-Event-ID names (what a reconnecting
 * EventSource sends; it wins over the URL it reconnects to), else at ?fromHeight, else null
 * (live only). A Last-Event-ID that is not one of our cursors is ignored.
 */
function resumePoint(lastEventId: string | undefined, fromHeight: string | undefined): ResumePoint | null {
  const id = CURSOR.exec(lastEventId?.trim() ?? '');
  if (id) return id[2] === undefined ? { from: Number(id[1]) + 1 } : { from: Number(id[1]) + 1, hash: id[2] };
  if (fromHeight === undefined) return null;
  if (!HEIGHT.test(fromHeight)) throw new ChainError('INVALID_PARAMS', 'fromHeight must be a non-negative integer');
  return { from: Number(fromHeight) };
}

/** The socket under the request, when served by @hono/node-server. */
function socketOf(c: Context): Destroyable | undefined {
  return (c.env as { incoming?: { socket?: Destroyable } } | undefined)?.incoming?.socket;
}

/** Node's response, when served by @hono/node-server: frames are then written straight onto it. */
function responseOf(c: Context): ServerResponse | undefined {
  const out = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  return out && typeof out.writeHead === 'function' ? out : undefined;
}

/** Answers with the stream; one fed through a WHATWG stream detaches when the client aborts. */
function serveStream(c: Context, stream: SseStream, direct: boolean): Response {
  if (!direct) c.req.raw.signal.addEventListener('abort', () => stream.close(), { once: true });
  return stream.response();
}

/** The event streams of the chain resource: GET /events under /api/chain and under /api/mempool. */
export function eventHandlers({ streams }: StreamDeps): Pick<Handlers<typeof E>, 'getApiChainEvents' | 'getApiMempoolEvents'> {
  return {
    getApiChainEvents: (c) => {
      streams.checkCapacity();
      const resume = resumePoint(c.req.header('Last-Event-ID'), c.req.query('fromHeight'));
      const from = resume?.from ?? null;
      const head = streams.ports.chain.head().index;
      const max = streams.options.maxResumeBlocks;
      if (from !== null && head - from + 1 > max) {
        throw new ChainError(
          'INVALID_PARAMS',
          `resume point ${from} is more than ${max} blocks behind the head (${head}); read them with GET /api/chain/blocks-full first`,
        );
      }
      const res = responseOf(c);
      return serveStream(c, new ChainEventStream(streams, resume, socketOf(c), res), res !== undefined);
    },
    getApiMempoolEvents: (c) => {
      streams.checkCapacity();
      const res = responseOf(c);
      return serveStream(c, new MempoolEventStream(streams, socketOf(c), res), res !== undefined);
    },
  };
}
