/** Options of the live streams (SSE and WebSocket): intervals, per-subscriber buffers, frame limits. */

/** How the live streams behave; `cli/` may override any of them, tests shrink them. */
export interface StreamOptions {
  /** SSE `ping` heartbeat interval (the spec's 2 s). */
  ssePingMs: number;
  /** Mempool `snapshot` interval for SSE and the WebSocket `mempool` channel (the spec's 3 s). */
  mempoolSnapshotMs: number;
  /** The `retry:` hint sent to SSE clients, in ms (the first step of the spec's backoff). */
  sseRetryMs: number;
  /** Most messages one subscriber may have waiting; one more and it is disconnected as SLOW_CONSUMER. */
  maxBufferedMessages: number;
  /** Most bytes one subscriber may have waiting (same rule). */
  maxBufferedBytes: number;
  /** After a SLOW_CONSUMER notice, how long the peer gets to read it before the socket is destroyed. */
  slowConsumerGraceMs: number;
  /** Most blocks an SSE resume (Last-Event-ID, ?fromHeight) replays from the log; further back is 400. */
  maxResumeBlocks: number;
  /** Most live subscribers (SSE and WebSocket together); more is 429 RATE_LIMITED. */
  maxSubscribers: number;
  /** WebSocket ping frame interval; a peer that has not answered the previous ping is dropped. */
  wsPingMs: number;
  /** Largest WebSocket message a client may send, in bytes (larger: close 1009). */
  wsMaxPayload: number;
  /** Most topics/channels one WebSocket connection may subscribe to. */
  wsMaxTopics: number;
}

/** Defaults: the spec's intervals, 1,024 messages or 4 MiB per subscriber, 64 KiB client messages. */
export const defaultStreamOptions: StreamOptions = {
  ssePingMs: 2_000,
  mempoolSnapshotMs: 3_000,
  sseRetryMs: 1_000,
  maxBufferedMessages: 1_024,
  maxBufferedBytes: 4 * 1024 * 1024,
  slowConsumerGraceMs: 5_000,
  maxResumeBlocks: 10_000,
  maxSubscribers: 20_000,
  wsPingMs: 30_000,
  wsMaxPayload: 64 * 1024,
  wsMaxTopics: 100,
};
