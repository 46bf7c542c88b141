/**
 * The checkpoint a node offers other nodes over HTTP (api/routes/checkpoint.ts): written on first
 * request into DATA_DIR/checkpoints/<digest>.ckpt, and written afresh when asked for once the
 * head has moved `refreshBlocks` past it. One is built at a time; the previous file stays until
 * the next one replaces it, so a download in progress is never cut.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChainStore } from './chainStore.ts';
import { isDigest } from './checkpointFile.ts';
import { type CheckpointWritten, writeCheckpoint } from './checkpointExport.ts';

/** What the publisher needs: the store and a consistent snapshot of it (`OmbraNode.consistentSnapshot`). */
export interface CheckpointPublisherDeps {
  store: ChainStore;
  consistentSnapshot: () => Promise<ReturnType<ChainStore['db']['snapshot']>>;
  /** The head's height now. */
  height: () => number;
  /** Where the files go (DATA_DIR/checkpoints). */
  dir: string;
}

/** Publisher options. */
export interface CheckpointPublisherOptions {
  /** A published checkpoint this many blocks below the head is replaced on the next request. */
  refreshBlocks: number;
}

/** Defaults: a new checkpoint every 1,000 blocks at most. */
const defaultCheckpointPublisherOptions: CheckpointPublisherOptions = { refreshBlocks: 1000 };

/** Builds and keeps the checkpoint this node serves. */
export class CheckpointPublisher {
  private readonly deps: CheckpointPublisherDeps;
  private readonly opts: CheckpointPublisherOptions;
  private current: CheckpointWritten | null = null;
  private previous: CheckpointWritten | null = null;
  private building: Promise<CheckpointWritten> | null = null;

  constructor(deps: CheckpointPublisherDeps, opts: Partial<CheckpointPublisherOptions> = {}) {
    this.deps = deps;
    this.opts = { ...defaultCheckpointPublisherOptions, ...opts };
  }

  /** The checkpoint on offer: the current one, or a new one when there is none or it is old. */
  latest(): Promise<CheckpointWritten> {
    const c = this.current;
    if (c && this.deps.height() - c.height < this.opts.refreshBlocks) return Promise.resolve(c);
    this.building ??= this.build().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  /** The file of a checkpoint on offer (the current or the one before), or null. */
  fileOf(digest: string): string | null {
    if (!isDigest(digest)) return null;
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
    return made;
  }
}
