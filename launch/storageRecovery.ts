/**
 * Recovery from a full disk without an operator. A LevelDB write that failed on an I/O error
 * fences the store for the rest of the process (node/store/storageFence.ts: LevelDB keeps such an error
 * and the write-ahead log cannot be built on), so the way back is a fresh open of the store. This
 * watcher does what an operator would: once the node is fenced it probes the data dir's disk (a
 * small file written, synced and removed) every few seconds, and when a probe succeeds it stops
 * the node and launches it again on the same data dir and ports, in this process. The restart
 * opens the store undamaged with every acknowledged write (the fence's whole point) and re-admits
 * the pending transactions.
 */
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../node/log.ts';
import type { StorageFault } from '../node/store/storageFence.ts';
import type { Launched } from './launch.ts';
import type { LaunchConfig } from './launchConfig.ts';

/** How the watcher probes and when. */
export interface StorageRecoveryOptions {
  /** Between two checks of the fence, and between two probes while fenced (ms). */
  probeIntervalMs: number;
  /** Bytes the probe writes and syncs: the room a block and its read-model batch need at least. */
  probeBytes: number;
}

/** Defaults: a check every 2 s, a 4 MiB probe. */
const defaultStorageRecoveryOptions: StorageRecoveryOptions = { probeIntervalMs: 2000, probeBytes: 4 * 1024 * 1024 };

/** What the watcher needs of the running node and of its composition root. */
export interface StorageRecoveryPorts {
  dataDir: string;
  /** The fault that stopped the current node's writes, or null. */
  fault(): StorageFault | null;
  /** Stops the current node and launches it again; resolves once the new one serves. */
  relaunch(): Promise<void>;
  log: Logger;
}

/** True when `bytes` can be written to a file in `dir` and synced to disk. */
async function diskTakesWrites(dir: string, bytes: number): Promise<boolean> {
  const file = join(dir, '.write-probe');
  try {
    const f = await open(file, 'w', 0o600);
    try {
      await f.write(Buffer.alloc(bytes));
      await f.sync();
    } finally {
      await f.close();
    }
    return true;
  } catch {
    return false;
  } finally {
    await rm(file, { force: true }).catch(() => undefined);
  }
}

/** Watches the fence; relaunches the node once its disk takes writes again. */
export class StorageRecovery {
  private readonly ports: StorageRecoveryPorts;
  private readonly opts: StorageRecoveryOptions;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private stopped = false;
  /** Relaunches so far (operators and tests). */
  recoveries = 0;

  constructor(ports: StorageRecoveryPorts, opts: Partial<StorageRecoveryOptions> = {}) {
    this.ports = ports;
    this.opts = { ...defaultStorageRecoveryOptions, ...opts };
  }

  start(): void {
    // Not unref'd: between the old node's stop and the new one's start it is all that keeps the process up.
    this.timer = setInterval(() => void this.check(), this.opts.probeIntervalMs);
  }

  /** Stops watching; resolves once a relaunch under way (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 50));
  }

  private async check(): Promise<void> {
    const fault = this.ports.fault();
    if (this.busy || this.stopped || !fault) return;
    this.busy = true;
    try {
      if (!(await diskTakesWrites(this.ports.dataDir, this.opts.probeBytes)) || this.stopped) return;
      this.ports.log.info('data dir takes writes again: reopening the store', { dataDir: this.ports.dataDir, cause: fault.cause });
      await this.ports.relaunch();
      this.recoveries++;
      this.ports.log.info('store reopened: writes resumed', { dataDir: this.ports.dataDir, fencedForMs: Date.now() - fault.since });
    } catch (e) {
      // The next probe tries again: a disk that filled up again during the reopen fences the new node.
      this.ports.log.error('reopening the store failed; trying again', { error: e instanceof Error ? e.message : String(e) });
    } finally {
      this.busy = false;
    }
  }
}

/**
 * `config` with the ports `running` actually took (a port 0 in the flags picked one): a relaunch
 * keeps the node where its clients, peers and scrapers know it.
 */
export function samePorts(config: LaunchConfig, running: Launched): LaunchConfig {
  // With --p2p-announce the node serves its announced addresses, not where it listens: the port
  // it was given stays (a proxy in front of it forwards to that one).
  const announced = (config.p2p?.announce?.length ?? 0) > 0;
  const p2pPort = announced
    ? undefined
    : running.p2p
        ?.addresses()
        .map((a) => /\/tcp\/(\d+)/.exec(a)?.[1])
        .find(Boolean);
  const metricsPort = running.metricsUrl ? Number(new URL(running.metricsUrl).port) : undefined;
  return {
    ...config,
    httpPort: Number(new URL(running.url).port),
    p2p: config.p2p && p2pPort ? { ...config.p2p, port: Number(p2pPort) } : config.p2p,
    metricsAddr: config.metricsAddr && metricsPort ? { ...config.metricsAddr, port: metricsPort } : config.metricsAddr,
  };
}
