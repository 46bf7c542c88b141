/**
 * Alert triggers: which subscriptions a committed block fires, and what each delivery says.
 * Pure (no I/O, no clock): the alert reactor (alertReactor.ts) feeds it blocks and persists
 * what it returns together with its saved position.
 *
 * - address_tx `{address}`: every transaction in the block that involves the address (`partiesOf`:
 *   its sender or any address field, such as `to`, `recipient`, `author`, `owner`)
 *   (one delivery per transaction).
 * - miner_block `{address?}`: a block was produced; with `address`, only blocks proposed by it.
 * - reward `{address?}`: every TASK_REWARD; with `address`, only those paying it a share.
 * - agent_finished `{address}`: an AGENT_FINISH sent by the address (the miner finishing the run)
 *   or ending a run the address requested (AGENT_REQUEST seen by this node's alert consumer).
 *
 * A subscription fires only for blocks above the height at which it was created.
 */
import type { Block } from '../../core/block.ts';
import { AGENT_FINISH, AGENT_REQUEST } from '../../core/tx/agent/agent.ts';
import { isTx, type SignedTx } from '../../core/tx/handler.ts';
import { partiesOf } from '../../core/tx/registry.ts';
import { TASK_REWARD } from '../../core/tx/task/task.ts';
import { stateTx } from '../../core/txCodec.ts';

/** The triggers. */
export const TRIGGERS = ['address_tx', 'miner_block', 'reward', 'agent_finished'] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** What matching needs of a subscription. */
export interface MatchableSub {
  id: string;
  trigger: Trigger;
  params: { address?: string };
  /** The head height when it was created: only later blocks fire it. */
  fromHeight: number;
}

/** One delivery to make. */
export interface AlertMatch {
  subId: string;
  trigger: Trigger;
  /** Unique within the block for this subscription (stable delivery ids derive from it). */
  eventKey: string;
  /** The webhook body (and the e-mail's JSON part). */
  body: Record<string, unknown>;
  /** What the e-mail links: a transaction hash or a block height. */
  link: { kind: 'tx'; hash: string } | { kind: 'block'; index: number };
  /** One line for an e-mail subject. */
  summary: string;
}

/** Subscriptions indexed by trigger and address (`*` for any). */
export interface SubIndex {
  lookup(trigger: Trigger, address: string): Iterable<MatchableSub>;
  /** True when no subscription is indexed: no block fires anything. */
  empty(): boolean;
}

/** A map-backed SubIndex. */
export class SubscriptionIndex implements SubIndex {
  private readonly map = new Map<string, Map<string, MatchableSub>>();

  private k(trigger: Trigger, address: string | undefined): string {
    return `${trigger}|${address ?? '*'}`;
  }

  add(s: MatchableSub): void {
    const key = this.k(s.trigger, s.params.address);
    let m = this.map.get(key);
    if (!m) {
      m = new Map();
      this.map.set(key, m);
    }
    m.set(s.id, s);
  }

  remove(s: MatchableSub): void {
    const key = this.k(s.trigger, s.params.address);
    const m = this.map.get(key);
    m?.delete(s.id);
    if (m && m.size === 0) this.map.delete(key);
  }

  lookup(trigger: Trigger, address: string): Iterable<MatchableSub> {
    return this.map.get(this.k(trigger, address))?.values() ?? [];
  }

  empty(): boolean {
    return this.map.size === 0;
  }

  /** True when some subscription has this trigger (any address). */
  has(trigger: Trigger): boolean {
    for (const k of this.map.keys()) if (k.startsWith(`${trigger}|`)) return true;
    return false;
  }
}

/** Agent runs a block opens (AGENT_REQUEST: agentRunId -> requester) and closes (AGENT_FINISH). */
export function agentRunsIn(block: Block): { opened: [string, string][]; finished: string[] } {
  const opened: [string, string][] = [];
  const finished: string[] = [];
  if (!Array.isArray(block.transactions)) return { opened, finished };
  for (const raw of block.transactions) {
    const runId = raw.agentRunId;
    // Only a run's transactions carry its id: the others are not put in state form at all.
    if (typeof runId !== 'string') continue;
    const tx = stateTx(raw);
    if (isTx(tx, AGENT_REQUEST)) opened.push([runId, tx.from]);
    if (isTx(tx, AGENT_FINISH)) finished.push(runId);
  }
  return { opened, finished };
}

function txsOf(block: Block): SignedTx[] {
  // As the state reads them: a subscription's address matches an address sent in any case.
  return Array.isArray(block.transactions) ? block.transactions.map(stateTx) : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * The deliveries `block` fires. `requesters` maps the agentRunId of each AGENT_FINISH in the
 * block to the run's requester, where known.
 */
export function matchBlock(block: Block, subs: SubIndex, requesters: ReadonlyMap<string, string> = new Map()): AlertMatch[] {
  const out: AlertMatch[] = [];
  // Most nodes have no subscription at all: nothing to build for a block nobody listens to.
  if (subs.empty()) return out;
  const txs = txsOf(block);
  const live = (s: MatchableSub) => block.index > s.fromHeight;
  const base = { blockIndex: block.index, blockHash: block.hash, timestamp: block.timestamp };
  // miner_block
  const blockBody = {
    index: block.index,
    hash: block.hash,
    proposer: block.proposer,
    timestamp: block.timestamp,
    txCount: txs.length,
  };
  for (const addr of ['*', block.proposer]) {
    for (const s of subs.lookup('miner_block', addr)) {
      if (!live(s)) continue;
      out.push({
        subId: s.id,
        trigger: 'miner_block',
        eventKey: `block:${block.hash}`,
        body: { trigger: 'miner_block', block: blockBody, ...base },
        link: { kind: 'block', index: block.index },
        summary: `block ${block.index} by ${block.proposer}`,
      });
    }
  }
  txs.forEach((tx, i) => {
    const hash = str(tx.hash) ?? `index-${i}`;
    const link = { kind: 'tx' as const, hash };
    // address_tx: once per transaction and party, even when the address fills several fields
    for (const addr of partiesOf(tx)) {
      for (const s of subs.lookup('address_tx', addr)) {
        if (!live(s)) continue;
        out.push({
          subId: s.id,
          trigger: 'address_tx',
          eventKey: `tx:${hash}`,
          body: { trigger: 'address_tx', tx, ...base },
          link,
          summary: `${tx.type} ${hash.slice(0, 16)}... in block ${block.index}`,
        });
      }
    }
    if (isTx(tx, TASK_REWARD)) {
      // Read as they are, whatever they hold: an alert must never break on a field.
      const rewards: { address?: unknown; amount?: unknown; reason?: unknown }[] = Array.isArray(tx.rewards) ? tx.rewards : [];
      const seen = new Set<string>();
      for (const s of subs.lookup('reward', '*')) {
        if (live(s))
          out.push({
            subId: s.id,
            trigger: 'reward',
            eventKey: `tx:${hash}`,
            body: { trigger: 'reward', tx, rewards, ...base },
            link,
            summary: `TASK_REWARD ${hash.slice(0, 16)}... in block ${block.index}`,
          });
      }
      for (const r of rewards) {
        const addr = str(r.address);
        if (!addr || seen.has(addr)) continue;
        seen.add(addr);
        const mine = rewards.filter((x) => x.address === addr);
        for (const s of subs.lookup('reward', addr)) {
          if (live(s))
            out.push({
              subId: s.id,
              trigger: 'reward',
              eventKey: `tx:${hash}`,
              body: { trigger: 'reward', tx, rewards: mine, ...base },
              link,
              summary: `reward to ${addr} in block ${block.index}`,
            });
        }
      }
    }
    if (isTx(tx, AGENT_FINISH)) {
      const runId = str(tx.agentRunId);
      const who = new Set([str(tx.from), runId ? requesters.get(runId) : undefined].filter((a): a is string => a !== undefined));
      for (const addr of who) {
        for (const s of subs.lookup('agent_finished', addr)) {
          if (!live(s)) continue;
          out.push({
            subId: s.id,
            trigger: 'agent_finished',
            eventKey: `tx:${hash}`,
            body: { trigger: 'agent_finished', tx, agentRunId: runId ?? null, outcome: str(tx.outcome) ?? null, ...base },
            link,
            summary: `agent run ${(runId ?? '').slice(0, 16)}... finished (${str(tx.outcome) ?? 'unknown'}) in block ${block.index}`,
          });
        }
      }
    }
  });
  return out;
}
