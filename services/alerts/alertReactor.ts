/**
 * The alert reactor: the projection runner folds every committed block through it, and the
 * deliveries a block fires are written as outbox rows in the same batch as the reactor's
 * saved position (so a restart neither loses nor repeats a trigger). On a reorganisation the runner
 * steps its rows back with the read models: undelivered rows of orphaned blocks disappear, and
 * the winning branch's blocks fire their own alerts. A delivery id depends on the subscription
 * and the event (a transaction's hash, a block's hash), never on the branch, so an alert of a
 * transaction that is in both branches is delivered once.
 */
import { hash } from 'node:crypto';
import type { Block } from '../../core/block.ts';
import { agentRunsIn, matchBlock, type AlertMatch, type SubIndex } from './alertMatch.ts';
import type { KvOp } from '../../projections/projection.ts';
import type { Reactor } from '../../projections/reactor.ts';
import type { Logger } from '../../node/log.ts';
import type { OutboxRow, SubRecord } from './alertTypes.ts';

/** Row keys in the reactor's key space. */
export const OUTBOX_PREFIX = 'o!';
const RUN_PREFIX = 'r!';

/** What the reactor holds in memory: open agent runs' requesters, and rows not yet durable. */
export interface AlertReactorState {
  runs: Map<string, string>;
  fresh: OutboxRow[];
}

/** What the reactor reads and whom it tells. */
export interface AlertReactorDeps {
  subs: SubIndex & { get(id: string): SubRecord | undefined };
  /** True when a delivery id was already made (delivered, or waiting in the outbox). */
  known(id: string): boolean;
  /** Deliveries waiting: in all, and for one subscription. */
  pending(subId?: string): number;
  /** Most deliveries waiting, in all and per subscription. */
  maxOutbox: number;
  maxPendingPerSub: number;
  /** Rows loaded from disk (start, or after a reorganisation stepped them back). */
  restored(rows: OutboxRow[]): void;
  /** Rows of folded blocks, now durable: schedule them. */
  written(rows: OutboxRow[]): void;
  publicUrl(): string;
  clock(): number;
  /** Deliveries one block may fire for one subscription (the rest are dropped and logged). */
  maxPerBlockPerSub: number;
  log: Logger;
}

/** Hex SHA-256. */
const sha = (s: string) => hash('sha256', s);

/** The delivery id of a match: stable across retries, restarts and branches. */
function deliveryId(m: Pick<AlertMatch, 'subId' | 'eventKey'>): string {
  return `msg_${sha(`${m.subId}|${m.eventKey}`).slice(0, 32)}`;
}

/** The alert reactor over `deps`. */
export function alertReactor(deps: AlertReactorDeps): Reactor<AlertReactorState> {
  return {
    name: 'alerts',
    version: 2,
    init: () => ({ runs: new Map(), fresh: [] }),
    async restore(rows) {
      const runs = new Map<string, string>();
      const outbox: OutboxRow[] = [];
      for await (const [key, value] of rows) {
        if (key.startsWith(RUN_PREFIX)) runs.set(key.slice(RUN_PREFIX.length), value as string);
        else if (key.startsWith(OUTBOX_PREFIX)) outbox.push(value as OutboxRow);
      }
      deps.restored(outbox);
      return { runs, fresh: [] };
    },
    react(state, block) {
      const { rows, ops } = matchRows(deps, state.runs, block);
      state.fresh.push(...rows);
      return { state, ops };
    },
    written(state) {
      const rows = state.fresh;
      state.fresh = [];
      if (rows.length) deps.written(rows);
    },
  };
}

/** The outbox rows a block fires and the row writes that record them (and its agent runs). */
export function matchRows(deps: AlertReactorDeps, runs: Map<string, string>, block: Block): { rows: OutboxRow[]; ops: KvOp[] } {
  const opened = agentRunsIn(block);
  const requesters = new Map<string, string>(opened.opened);
  for (const id of opened.finished) {
    const requester = runs.get(id);
    if (requester !== undefined && !requesters.has(id)) requesters.set(id, requester);
  }
  const now = deps.clock();
  const rows: OutboxRow[] = [];
  const perSub = new Map<string, number>();
  let total = deps.pending();
  let overflow = 0;
  for (const m of matchBlock(block, deps.subs, requesters)) {
    const n = (perSub.get(m.subId) ?? 0) + 1;
    perSub.set(m.subId, n);
    const id = deliveryId(m);
    if (n > deps.maxPerBlockPerSub || deps.known(id) || rows.some((r) => r.id === id)) continue;
    // A bounded outbox: targets that never answer cannot grow it without end.
    if (total >= deps.maxOutbox || deps.pending(m.subId) + n > deps.maxPendingPerSub) {
      overflow++;
      continue;
    }
    total++;
    const sub = deps.subs.get(m.subId);
    if (sub) rows.push(rowOf(m, id, sub, block, now, deps.publicUrl()));
  }
  if (overflow) deps.log.warn('alert outbox full: deliveries dropped', { block: block.index, dropped: overflow });
  for (const [subId, n] of perSub) {
    if (n > deps.maxPerBlockPerSub)
      deps.log.warn('alert deliveries capped for one block', { subId, block: block.index, fired: n, kept: deps.maxPerBlockPerSub });
  }
  const ops: KvOp[] = rows.map((r) => ({ type: 'put', key: OUTBOX_PREFIX + r.id, value: r }));
  for (const [id, from] of opened.opened) {
    runs.set(id, from);
    ops.push({ type: 'put', key: RUN_PREFIX + id, value: from });
  }
  for (const id of opened.finished) {
    runs.delete(id);
    ops.push({ type: 'del', key: RUN_PREFIX + id });
  }
  return { rows, ops };
}

/** The outbox row of one match: the webhook body, the e-mail's subject and text. */
function rowOf(m: AlertMatch, id: string, sub: SubRecord, block: Block, now: number, publicUrl: string): OutboxRow {
  const link = m.link.kind === 'tx' ? `${publicUrl}/api/chain/tx/${m.link.hash}` : `${publicUrl}/api/chain/block/${m.link.index}`;
  const text = [
    `Alert ${m.trigger} fired: ${m.summary}.`,
    '',
    `Block ${block.index} (${block.hash}) at ${new Date(block.timestamp).toISOString()}`,
    m.link.kind === 'tx' ? `Transaction: ${link}` : `Block: ${link}`,
    '',
    'Details (JSON):',
    JSON.stringify(m.body, null, 2),
    '',
    `Subscription ${sub.id}. To stop these alerts: DELETE ${publicUrl}/api/alerts/${sub.id} with header X-Alert-Token.`,
  ].join('\n');
  return {
    id,
    subId: m.subId,
    trigger: m.trigger,
    blockIndex: block.index,
    body: JSON.stringify(m.body),
    subject: `[Ombra] ${m.trigger}: ${m.summary}`,
    text,
    attempts: 0,
    nextAt: now,
    createdAt: now,
    lastError: null,
  };
}
