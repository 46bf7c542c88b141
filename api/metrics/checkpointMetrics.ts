/**
 * The gauges of a node started from a checkpoint (checkpoint/checkpointVerifier.ts), read at scrape
 * time: where its background verification stands (`ombra_checkpoint_status`, one series per state,
 * 1 for the current one: alert on `ombra_checkpoint_status{status=~"mismatch|failed"} == 1`), the
 * checkpoint's height and how far the replay of history has come.
 */
import { Gauge } from 'prom-client';
import type { CheckpointStatus } from '../../checkpoint/checkpointRecord.ts';
import type { NodeMetrics } from './nodeMetrics.ts';

/** What the gauges read. */
export interface CheckpointSource {
  status(): CheckpointStatus;
  height(): number;
  /** Blocks the verification has replayed. */
  replayed: number;
}

const STATES: readonly CheckpointStatus[] = ['verifying', 'verified', 'mismatch', 'failed'];

/** Registers the checkpoint gauges on `metrics`' registry. */
export function observeCheckpoint(metrics: NodeMetrics, src: CheckpointSource): void {
  const status = new Gauge({
    name: 'ombra_checkpoint_status',
    help: 'Background verification of the checkpoint this node started from: 1 for the current status, else 0',
    labelNames: ['status'] as const,
    registers: [metrics.registry],
    collect: () => {
      for (const s of STATES) status.set({ status: s }, src.status() === s ? 1 : 0);
    },
  });
  new Gauge({
    name: 'ombra_checkpoint_height',
    help: 'Height of the checkpoint this node started from',
    registers: [metrics.registry],
    collect() {
      this.set(src.height());
    },
  });
  new Gauge({
    name: 'ombra_checkpoint_replayed_height',
    help: "Height the background verification's replay of history has reached",
    registers: [metrics.registry],
    collect() {
      this.set(src.status() === 'verifying' ? src.replayed : src.height());
    },
  });
}
