/**
 * The checkpoint a node offers other nodes over HTTP (api/resources/checkpoint/), built on the
 * node's own schedule and never by a request: once after start, then whenever a check (every
 * `checkIntervalMs`) finds the head `refreshBlocks` past it and `minIntervalMs` gone since the last
 * build. A request only reads what is built, so no number of anonymous requests costs a build.
 * A node whose own state is not verified (started from a checkpoint still verifying, failed or
 * contradicted) builds and offers nothing: it never passes on rows it has not proven. Files go to
 * DATA_DIR/checkpoints/<digest>.ckpt; the previous one stays until the next replaces it, so a
 * download in progress is never cut.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChainStore } from '../node/store/chainStore.ts';
import { isDigest } from './checkpointFile.ts';
import { type CheckpointWritten, writeCheckpoint } from './checkpointExport.ts';
import type { Logger } from '../node/log.ts';
import type { Component } from '../node/ports.ts';
import { errorMessage } from '../core/errors.ts';

/** What the publisher needs: the store and a consistent snapshot of it (`OmbraNode.consistentSnapshot`). */
export interface CheckpointPublisherDeps {
  store: ChainStore;
  consistentSnapshot: () => Promise<ReturnType<ChainStore['db']['snapshot']>>;
  /** The head's height now. */
  height: () => number;
  /** Where the files go (DATA_DIR/checkpoints). */
  dir: string;
  /** True when this node's state is proven: started from genesis, or its checkpoint verified. */
  verified: () => boolean;
  log: Logger;
}

/** Publisher options. */
export interface CheckpointPublisherOptions {
  /** A published checkpoint this many blocks below the head is replaced at the next check. */
  refreshBlocks: number;
  /** And not sooner than this after the last build started (a fast chain would rebuild constantly). */
  minIntervalMs: number;
  /** How often the schedule looks whether a build is due. */
  checkIntervalMs: number;
  /** When the next look is after a failed build. */
  retryMs: number;
  now: () => number;
}

/** Defaults: a new checkpoint every 1,000 blocks and 10 minutes at most, looked at every minute (5 s after a failed build). */
const defaultCheckpointPublisherOptions: CheckpointPublisherOptions = {
  refreshBlocks: 1000,
  minIntervalMs: 10 * 60_000,
  checkIntervalMs: 60_000,
  retryMs: 5000,
  now: Date.now,
};

/** Builds, on its schedule, and keeps the checkpoint this node serves. */
export class CheckpointPublisher implements Component {
  private readonly deps: CheckpointPublisherDeps;
  private readonly opts: CheckpointPublisherOptions;
  private current: CheckpointWritten | null = null;
  private previous: CheckpointWritten | null = null;
  private building: Promise<CheckpointWritten | null> | null = null;
  private builtAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Builds started (for the node's metrics and tests). */
  builds = 0;

  constructor(deps: CheckpointPublisherDeps, opts: Partial<CheckpointPublisherOptions> = {}) {
    this.deps = deps;
    this.opts = { ...defaultCheckpointPublisherOptions, ...opts };
  }

  /** Lifecycle: a first build now (in the background), then a check every `checkIntervalMs` (`retryMs` after a failed build). */
  async start(): Promise<void> {
    let failures = 0;
    const tick = () => {
      this.refresh().then(
        () => {
          failures = 0;
          this.schedule(tick, this.opts.checkIntervalMs);
        },
        (e: unknown) => {
          // A new chain has no read model checkpoint before its first block: only a failure that persists is worth a warning.
          if (++failures >= 3) this.deps.log.warn('checkpoint build failed', { error: errorMessage(e), failures });
          this.schedule(tick, this.opts.retryMs);
        },
      );
    };
    tick();
  }

  private schedule(tick: () => void, ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(tick, ms);
    this.timer.unref();
  }

  /** Lifecycle: no more builds; waits for one in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.building?.catch(() => null);
  }

  /** The checkpoint on offer, or null (none built yet, or this node's state is not verified). */
  offered(): CheckpointWritten | null {
    return this.deps.verified() ? this.current : null;
  }

  /** Builds a checkpoint when one is due (none yet, or the head far enough past it and long enough since); one build at a time. */
  refresh(): Promise<CheckpointWritten | null> {
    if (this.building) return this.building;
    if (!this.deps.verified()) return Promise.resolve(null);
    const c = this.current;
    const fresh =
      this.deps.height() - (c?.height ?? 0) < this.opts.refreshBlocks || this.opts.now() - this.builtAt < this.opts.minIntervalMs;
    if (c && fresh) return Promise.resolve(c);
    this.builds++;
    this.builtAt = this.opts.now();
    this.building = this.build().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  /** The file of a checkpoint on offer (the current or the one before), or null. */
  fileOf(digest: string): string | null {
    if (!isDigest(digest) || !this.deps.verified()) return null;
    const known = [this.current, this.previous].some((c) => c?.digest === digest.toLowerCase());
    const path = join(this.deps.dir, `${digest.toLowerCase()}.ckpt`);
    return known && existsSync(path) ? path : null;
  }

  private async build(): Promise<CheckpointWritten> {
    await mkdir(this.deps.dir, { recursive: true });
    const tmp = join(this.deps.dir, 'building.ckpt');
    const made = await writeCheckpoint(this.deps.store, await this.deps.consistentSnapshot(), tmp);
    await rename(tmp, join(this.deps.dir, `${made.digest}.ckpt`));
    // The one before stays for downloads in progress; anything older goes.
    const keep = new Set([made.digest, this.current?.digest].filter(Boolean).map((d) => `${d}.ckpt`));
    for (const f of await readdir(this.deps.dir)) if (!keep.has(f)) await rm(join(this.deps.dir, f), { force: true });
    this.previous = this.current?.digest === made.digest ? this.previous : this.current;
    this.current = made;
    this.deps.log.info('checkpoint built for GET /api/checkpoint', { height: made.height, digest: made.digest, bytes: made.bytes });
    return made;
  }
}
