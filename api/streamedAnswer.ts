/**
 * Streamed answers: bodies written as the socket drains (block ranges, stored content, a site's
 * bundle, checkpoint files). Each holds its caller's concurrency and stream slots until it ends
 * (api/rateLimitGate.ts), whatever its path, so slow readers cannot open more of them than their
 * tier's streams. Every route that streams marks its answer here.
 */

const STREAMED = new WeakSet<Response>();

/** Marks `res` as streamed and answers it. */
export function streamed(res: Response): Response {
  STREAMED.add(res);
  return res;
}

/** True for an answer a route marked as streamed. */
export function isStreamed(res: Response): boolean {
  return STREAMED.has(res);
}
