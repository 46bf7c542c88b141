/**
 * A Prometheus registry with the node's sources attached at scrape time, and the factories of
 * metrics that read them there: gauges that mirror node state, counters that follow counts the
 * node keeps. api/metrics/nodeMetrics.ts declares every metric with them.
 */
import type { Observable } from 'rxjs';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ChainEvent } from '../../projections/events.ts';
import type { PeerGuardStats } from '../../node/ports.ts';

/** What the metrics read at scrape time (narrow, read-only views of the node's parts). */
export interface MetricSources {
  events$: Observable<ChainEvent>;
  head(): { index: number; timestamp: number };
  /** Pending transactions (counted and sized at scrape time). */
  pending(): readonly unknown[];
  peerCount(): number;
  syncing(): boolean;
  /** Live subscribers of SSE and WebSocket together, and WebSocket sessions alone. */
  subscribers?(): { total: number; ws: number };
  /** Deliveries waiting in the alert outbox. */
  outbox?(): number;
  /** Height each read model has folded. */
  projectionHeights?(): Record<string, number>;
  /** Read models reset to genesis since start (one per projection). */
  readModelResets?(): number;
  /** Bans and gossip dropped unread (absent without p2p). */
  guard?(): PeerGuardStats;
  /** Bytes the store's LevelDB holds in memory (memtables and block cache). */
  storeMemory?(): number;
  /** Which implementation checks the Ed25519 equation ('libsodium', or 'node:crypto' as the fallback). */
  signatureVerifier?(): string;
  clock?(): number;
}

/** A registry and the metric factories over its sources. */
export class MetricRegistry {
  readonly registry = new Registry();
  /** Where scrape-time gauges read (set by `observeNode`). */
  src: MetricSources | null = null;

  /** A gauge read from the sources at scrape time (left unset until sources are attached). */
  protected gauge(name: string, help: string, read: (s: MetricSources) => number): Gauge {
    const metrics = this;
    return new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        if (metrics.src) this.set(read(metrics.src));
      },
    });
  }

  /** A counter that follows a count kept by the node, brought up to date at scrape time. */
  protected following(name: string, help: string, read: (s: MetricSources) => number): Counter {
    const metrics = this;
    let seen = 0;
    return new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        if (!metrics.src) return;
        const now = read(metrics.src);
        if (now > seen) this.inc(now - seen);
        seen = now;
      },
    });
  }

  /** A counter by gossip topic that follows the network's counts, brought up to date at scrape time. */
  protected byTopic(name: string, help: string, read: (g: PeerGuardStats) => { block: number; tx: number }): Counter<'topic'> {
    const metrics = this;
    const seen = { block: 0, tx: 0 };
    return new Counter({
      name,
      help,
      labelNames: ['topic'] as const,
      registers: [this.registry],
      collect() {
        const g = metrics.src?.guard?.();
        if (!g) return;
        const now = read(g);
        for (const topic of ['block', 'tx'] as const) {
          if (now[topic] > seen[topic]) this.inc({ topic }, now[topic] - seen[topic]);
          seen[topic] = now[topic];
        }
      },
    });
  }

  /** A counter fed by the node. */
  protected counter(name: string, help: string): Counter {
    return new Counter({ name, help, registers: [this.registry] });
  }

  /** A histogram fed by the node. */
  protected histogram(name: string, help: string, buckets: number[]): Histogram {
    return new Histogram({ name, help, buckets, registers: [this.registry] });
  }
}
