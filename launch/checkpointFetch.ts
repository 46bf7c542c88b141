/**
 * Downloading a checkpoint for `ombra start --checkpoint-url` from a server that may be hostile:
 * the body is taken as sent (`Accept-Encoding: identity`; an encoded body is refused, never
 * inflated before its digest is checked), it may not exceed a size cap (the flag's, or a smaller
 * `Content-Length`), a server that sends nothing for `timeoutMs` (connecting, before its headers
 * or mid-body) ends the download, progress is logged as it goes, and the temp file is removed on
 * any failure (the caller removes it on a signal: `tempOf`).
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from '../node/log.ts';
import { CliFault } from './dataDir.ts';
import { errorMessage } from '../core/errors.ts';

/** Limits of a checkpoint download. */
export interface CheckpointFetchOptions {
  /** The most bytes a checkpoint may have; a longer body (or `Content-Length`) is refused. */
  maxBytes: number;
  /** A server that sends nothing for this long (connect, headers or body) ends the download. */
  timeoutMs: number;
  /** Aborts the download (a signal to the process). */
  signal?: AbortSignal;
}

/** Defaults: 16 GiB, 30 s. */
export const defaultCheckpointFetchOptions: CheckpointFetchOptions = { maxBytes: 16 * 2 ** 30, timeoutMs: 30_000 };

/** Progress is logged at every tenth of a known length, else every this many bytes, and at least every PROGRESS_MS. */
const PROGRESS_BYTES = 256 * 2 ** 20;
const PROGRESS_MS = 30_000;

/** The temp file a download into `out` writes. */
export const tempOf = (out: string): string => `${out}.tmp`;

/** Streams `url` into `out` (via `tempOf(out)`) within `opts`; any failure is the operator's one-line fault and leaves no file. */
export async function fetchCheckpoint(url: string, out: string, opts: CheckpointFetchOptions, log: Logger): Promise<void> {
  const tmp = tempOf(out);
  const fault = (why: string) => new CliFault(`the checkpoint download from ${url} failed: ${why}`);
  const ac = new AbortController();
  const onAbort = () => ac.abort(fault('stopped'));
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  // One watchdog for connecting, the headers and every chunk: re-armed whenever bytes arrive.
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => ac.abort(fault(`the server sent nothing for ${opts.timeoutMs} ms`)), opts.timeoutMs);
  };
  try {
    arm();
    const res = await responseOf(url, ac.signal);
    if (res.statusCode !== 200) throw new CliFault(`cannot fetch the checkpoint from ${url}: HTTP ${res.statusCode}`);
    const encoding = res.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity')
      throw fault(`the server sent it with Content-Encoding ${encoding} (a checkpoint is fetched as it is: identity)`);
    const length = res.headers['content-length'] === undefined ? null : Number(res.headers['content-length']);
    if (length !== null && length > opts.maxBytes)
      throw fault(`the server announces ${length} bytes, more than the ${opts.maxBytes} --checkpoint-max-bytes allows`);
    const cap = length ?? opts.maxBytes;
    let bytes = 0;
    let reported = 0;
    const started = Date.now();
    let loggedAt = started;
    const step = length ? Math.max(1, Math.ceil(length / 10)) : PROGRESS_BYTES;
    const report = () => {
      loggedAt = Date.now();
      const seconds = (loggedAt - started) / 1000;
      log.info('checkpoint download', {
        bytes,
        ...(length ? { total: length, percent: Math.floor((bytes / length) * 100) } : {}),
        mibPerSecond: seconds > 0 ? Math.round((bytes / 2 ** 20 / seconds) * 10) / 10 : 0,
      });
    };
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        arm();
        bytes += chunk.length;
        if (bytes > cap)
          return cb(
            fault(
              `the body goes on past ${cap} bytes, more than ${length === null ? '--checkpoint-max-bytes allows' : 'its Content-Length'}`,
            ),
          );
        // At every step, and at least every PROGRESS_MS while bytes come (a slow server is seen).
        if (bytes - reported >= step || Date.now() - loggedAt >= PROGRESS_MS) {
          reported = bytes - (bytes % step);
          report();
        }
        cb(null, chunk);
      },
    });
    log.info('checkpoint download', { bytes: 0, ...(length ? { total: length, percent: 0 } : {}) });
    await pipeline(res, counter, createWriteStream(tmp), { signal: ac.signal });
    if (length !== null && bytes !== length) throw fault(`the body ended after ${bytes} of its ${length} bytes`);
    if (bytes !== reported) report();
    await rename(tmp, out);
  } catch (e) {
    // Whatever went wrong, the socket goes too (an unread body would keep it open).
    if (!ac.signal.aborted) ac.abort(e);
    await rm(tmp, { force: true });
    const why = ac.signal.aborted ? ac.signal.reason : e;
    if (why instanceof CliFault) throw why;
    throw fault(errorMessage(why));
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** The response to a GET of `url` asking for the body unencoded. */
function responseOf(url: string, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith('https:') ? httpsRequest : httpRequest;
    const req = request(url, { headers: { 'Accept-Encoding': 'identity' }, signal }, resolve);
    req.on('error', (e) =>
      reject(new CliFault(`cannot fetch the checkpoint from ${url}: ${signal.aborted ? errorMessage(signal.reason) : e.message}`)),
    );
    req.end();
  });
}
