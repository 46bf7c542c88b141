/**
 * Background verification of the checkpoint a node started from (the model of Bitcoin Core's
 * assumeutxo): a child process at a lowered CPU priority (checkpoint/replayChild.ts) replays the
 * chain from genesis with full validation (checkpoint/checkpointReplay.ts) and compares the head
 * hash and every read model's digest at the checkpoint's height with the checkpoint file's. The
 * history below the checkpoint comes from peers through the sync protocol
 * (checkpoint/historyFrom.ts); each batch the replay accepted is also written into this node's
 * log, so blocks below the checkpoint are served once fetched. The outcome is stored in the data
 * dir's `checkpoint` row: `verified` stays verified, a `mismatch` stops reads (api/checkpointGate.ts).
 */
import { existsSync } from 'node:fs';
import type { Block } from '../core/block.ts';
import { heightKey } from '../core/encoding.ts';
import type { ChainStore } from '../node/store/chainStore.ts';
import { type CheckpointRecord, type CheckpointStatus, saveCheckpointRecord } from './checkpointRecord.ts';
import type { Logger } from '../node/log.ts';
import type { Component } from '../node/ports.ts';
import { errorMessage } from '../core/errors.ts';
import { ReplayChild } from './replayChild.ts';
import { HistoryUnavailable, type HistorySource, historyFrom } from './historyFrom.ts';

/** What the verifier needs. */
export interface CheckpointVerifierDeps {
  store: ChainStore;
  record: CheckpointRecord;
  /** The installed checkpoint file (kept in the data dir until verified). */
  file: string;
  /** The replay's scratch LevelDB directory (kept across restarts: the replay resumes). */
  scratchDir: string;
  /** Blocks from..to (a prefix of it) from a peer; throws when no peer can answer now. */
  fetchHistory: (from: number, to: number) => Promise<Block[]>;
  log: Logger;
  /** Called when the file and the scratch dir may go (verified). */
  onVerified?: () => Promise<void>;
}

/** Verifier options. */
export interface CheckpointVerifierOptions {
  /** How long the replay waits, from its first unanswered request, for a peer with history before the verification is `failed`. */
  historyWaitMs: number;
}

/** Defaults: 10 minutes for history. */
const defaultCheckpointVerifierOptions: CheckpointVerifierOptions = { historyWaitMs: 10 * 60_000 };

/** Blocks per batch sent to the replay from this node's own log. */
const LOCAL_BATCH = 256;

/** Runs and reports the background verification of an installed checkpoint. */
export class CheckpointVerifier implements Component {
  private readonly deps: CheckpointVerifierDeps;
  private readonly opts: CheckpointVerifierOptions;
  private record: CheckpointRecord;
  private child: ReplayChild | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Blocks replayed so far, and since when (the rate in /metrics and the log). */
  replayed = 0;
  private startedAt = 0;
  private replayedAtStart = 0;

  constructor(deps: CheckpointVerifierDeps, opts: Partial<CheckpointVerifierOptions> = {}) {
    this.deps = deps;
    this.opts = { ...defaultCheckpointVerifierOptions, ...opts };
    this.record = deps.record;
  }

  /** `verifying`, `verified`, `mismatch` or `failed`. */
  status(): CheckpointStatus {
    return this.record.status;
  }

  /** Why it is `mismatch` or `failed`. */
  reason(): string | undefined {
    return this.record.status === 'mismatch' || this.record.status === 'failed' ? this.record.reason : undefined;
  }

  /** The checkpoint's height. */
  height(): number {
    return this.record.height;
  }

  /** Blocks replayed a second since the verification (re)started. */
  rate(): number {
    const seconds = (Date.now() - this.startedAt) / 1000;
    return seconds > 0 ? (this.replayed - this.replayedAtStart) / seconds : 0;
  }

  /** Lifecycle: starts the replay in the background unless the checkpoint is judged (a `failed` one is tried again). */
  async start(): Promise<void> {
    if (this.record.status !== 'verifying' && this.record.status !== 'failed') return;
    const gone = `the checkpoint file ${this.deps.file} is gone, so it can never be verified: start a new data dir from a checkpoint`;
    if (!existsSync(this.deps.file)) return this.failWith(gone);
    if (this.record.status === 'failed') {
      this.record = { ...this.record, status: 'verifying', reason: undefined };
      await saveCheckpointRecord(this.deps.store, this.record);
    }
    this.running = this.run().catch(async (e: unknown) => {
      if (this.stopped) return;
      await this.failWith(e instanceof HistoryUnavailable ? e.message : `the verification stopped: ${errorMessage(e)}`);
    });
  }

  /** Lifecycle: stops the replay (it resumes at the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.child?.kill();
    await this.running;
  }

  private async run(): Promise<void> {
    const { log } = this.deps;
    const child = new ReplayChild(this.deps.scratchDir, this.deps.file);
    this.child = child;
    const ready = await child.next();
    if (ready.type !== 'ready') return this.fail(`the replay could not start: ${'message' in ready ? ready.message : ready.type}`);
    this.startedAt = Date.now();
    this.replayed = this.replayedAtStart = ready.height;
    log.info('checkpoint verification started', { checkpoint: this.record.height, from: ready.height + 1 });
    const { height, base } = this.record;
    const history: HistorySource = {
      fetchHistory: (from, to) => this.deps.fetchHistory(from, to),
      historyWaitMs: this.opts.historyWaitMs,
      stopped: () => this.stopped,
      log,
    };
    let h = ready.height + 1;
    while (h <= height && !this.stopped) {
      const fromPeers = h < base;
      const json = fromPeers
        ? await historyFrom(h, base - 1, history)
        : await this.deps.store.blocksJsonIn(h, Math.min(height, h + LOCAL_BATCH - 1));
      if (this.stopped) return;
      child.send({ type: 'blocks', json });
      const a = await child.next();
      if (a.type === 'exit') return this.fail(a.message);
      if (a.type !== 'imported') return this.judge([`history does not replay: ${'message' in a ? a.message : a.type}`]);
      // Fetched history the replay accepted joins this node's log (below its first block).
      if (fromPeers) await this.backfill(json, h, a.height);
      this.replayed = a.height;
      h = a.height + 1;
    }
    if (this.stopped) return;
    child.send({ type: 'finish' });
    const result = await child.next();
    if (result.type === 'exit') return this.fail(result.message);
    if (result.type !== 'result')
      return this.judge([`the replay failed at the end: ${'message' in result ? result.message : result.type}`]);
    await this.judge(result.mismatches);
  }

  /** Writes replayed blocks from..to below the log's first block; the log is whole once they reach it. */
  private async backfill(json: string[], from: number, to: number): Promise<void> {
    const { store } = this.deps;
    const rows = store.sublevel('blocks');
    const ops = json
      .slice(0, to - from + 1)
      .map((text, i) => ({ type: 'put' as const, sublevel: rows, key: heightKey(from + i), value: JSON.parse(text) }));
    await store.write(ops, { sync: true });
    if (to + 1 >= this.record.base) {
      // The replay took block `base` on top of these: the history links to the checkpoint's log.
      this.record = { ...this.record, logFrom: 1 };
      await saveCheckpointRecord(store, this.record);
      store.logFrom = 1;
      this.deps.log.info('history below the checkpoint fetched', { blocks: to });
    }
  }

  private async judge(mismatches: string[]): Promise<void> {
    if (this.stopped) return;
    if (mismatches.length === 0) {
      this.record = { ...this.record, status: 'verified', verifiedHeight: this.record.height };
      await saveCheckpointRecord(this.deps.store, this.record);
      this.deps.log.info('checkpoint verified against history', { height: this.record.height, blocksPerSecond: Math.round(this.rate()) });
      await this.deps.onVerified?.();
      return;
    }
    this.record = { ...this.record, status: 'mismatch', reason: mismatches.join('; ').slice(0, 2000) };
    await saveCheckpointRecord(this.deps.store, this.record);
    this.deps.log.error('checkpoint MISMATCH: it differs from the replayed history; reads are stopped', {
      height: this.record.height,
      reason: this.record.reason,
    });
  }

  private fail(why: string): Promise<void> {
    return this.failWith(`the replay could not run: ${why}`);
  }

  /** Stores `failed` with its reason: the node says so in health until a restart tries again. */
  private async failWith(reason: string): Promise<void> {
    if (this.stopped) return;
    this.record = { ...this.record, status: 'failed', reason: reason.slice(0, 2000) };
    await saveCheckpointRecord(this.deps.store, this.record);
    this.deps.log.error('checkpoint verification FAILED: the checkpoint stays unverified (a restart tries again)', {
      height: this.record.height,
      reason: this.record.reason,
    });
  }
}
