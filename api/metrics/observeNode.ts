/**
 * Feeds `NodeMetrics` from the node's event feed and attaches the read-only sources its gauges
 * read at scrape time: nothing here reaches into the node's internals or polls.
 */
import type { MetricsPorts } from '../../node/ports.ts';
import type { AlertService } from '../../services/alerts/alertService.ts';
import type { NetworkView } from '../context.ts';
import type { StreamHub } from '../streams/streamHub.ts';
import { signatureEquation } from '../../core/signature.ts';
import type { MetricSources } from './metricRegistry.ts';
import type { NodeMetrics } from './nodeMetrics.ts';

/** Starts feeding `m` from `src`; the returned function stops it. */
function observeNode(m: NodeMetrics, src: MetricSources): () => void {
  m.src = src;
  const sub = src.events$.subscribe((e) => {
    if (e.type === 'block' && !e.replay) {
      (e.source === 'local' ? m.blocksProduced : m.blocksImported).inc();
      m.txsConfirmed.inc(e.block.transactions.length);
    } else if (e.type === 'tx') m.txsAccepted.inc({ origin: e.source ?? 'api' });
    else if (e.type === 'reorg') {
      m.reorgs.inc();
      m.reorgDepth.observe(e.oldHead.index - e.fromHeight + 1);
    }
  });
  return () => {
    sub.unsubscribe();
    m.src = null;
  };
}

/** Records one finished alert delivery attempt (`AlertOptions.onAttempt`). */
export function observeDelivery(m: NodeMetrics, channel: string, ok: boolean, seconds: number): void {
  m.deliveries.inc({ channel, result: ok ? 'success' : 'failure' });
  m.deliverySeconds.observe({ channel }, seconds);
}

/** The parts of a running node that metrics observe, through read ports (what `launch` wires). */
export interface ObservedNode {
  node: MetricsPorts;
  network: NetworkView;
  streams: Pick<StreamHub, 'subscriberCount'>;
  sockets: { sessions: { size: number } };
  alerts: Pick<AlertService, 'pendingCount'>;
}

/** Observes a launched node: its feed, head, mempool, network, streams, outbox and read models. */
export function observeLaunched(m: NodeMetrics, n: ObservedNode): () => void {
  return observeNode(m, {
    events$: n.node.feed.events$,
    head: () => n.node.chain.head(),
    pending: () => n.node.mempool.list(),
    peerCount: () => n.network.peerCount(),
    syncing: () => n.network.syncing(),
    subscribers: () => ({ total: n.streams.subscriberCount, ws: n.sockets.sessions.size }),
    outbox: () => n.alerts.pendingCount(),
    projectionHeights: () => n.node.models.heights(),
    readModelResets: () => n.node.models.resets(),
    storeMemory: () => n.node.storeMemory(),
    guard: n.network.guardStats?.bind(n.network),
    signatureVerifier: signatureEquation,
  });
}
