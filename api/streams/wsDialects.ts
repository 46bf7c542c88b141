/**
 * The two WebSocket protocols: `/api/ws` (`{action, channel}`, channels blocks, txs, mempool,
 * agent, chat) and the older `/ws` (`{type, topic}`, topics new_block, new_tx, address:<addr>,
 * task:<taskId>). A dialect parses client messages and turns node events into encoded messages.
 */
import { ChainError } from '../../core/errors.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import type { ChainEvent } from '../../projections/events.ts';
import type { MempoolSnapshot, StreamHub } from './streamHub.ts';
import { stateTx } from '../../core/txCodec.ts';
import { addressesOf, agentMessages, chatMessages, reorgMessage, taskOfTx, txSummary } from './wsMessages.ts';

/** What a client asked for. */
type WsCommand = { op: 'subscribe' | 'unsubscribe'; topic: string; since?: string } | { op: 'ping' };

/** One WebSocket protocol. */
export interface WsDialect {
  /** Turns a parsed client message into a command; throws ChainError INVALID_PARAMS. */
  command(msg: unknown): WsCommand;
  /** Validates and normalises a channel or topic name; throws ChainError INVALID_PARAMS. */
  topic(raw: string): string;
  /** The answer to a (un)subscription. */
  ack(type: 'subscribed' | 'unsubscribed', topic: string): unknown;
  /** The encoded messages an event produces on a topic (shared by every subscriber). */
  frames(hub: StreamHub, e: ChainEvent, topic: string): string[];
  /** The encoded periodic snapshot for a topic, or null when the topic has none. */
  snapshot(hub: StreamHub, s: MempoolSnapshot, topic: string): string | null;
}

const json = (v: unknown) => JSON.stringify(v);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const live = (e: ChainEvent) => e.type !== 'block' || !e.replay;

/** Channels of /api/ws. */
const API_CHANNELS = ['blocks', 'txs', 'mempool', 'agent', 'chat'];

/** `/api/ws`: `{action: subscribe|unsubscribe, channel}`, `{action: ping}`. */
export const apiDialect: WsDialect = {
  command(msg) {
    if (!isObject(msg) || typeof msg.action !== 'string')
      throw new ChainError('INVALID_PARAMS', 'a message is {action: "subscribe" | "unsubscribe" | "ping", channel?}');
    if (msg.action === 'ping') return { op: 'ping' };
    if (msg.action !== 'subscribe' && msg.action !== 'unsubscribe')
      throw new ChainError('INVALID_PARAMS', `unknown action ${json(msg.action).slice(0, 40)}; actions: subscribe, unsubscribe, ping`);
    if (typeof msg.channel !== 'string')
      throw new ChainError('INVALID_PARAMS', `${msg.action} needs a channel: ${API_CHANNELS.join(', ')}`);
    if (msg.since === undefined) return { op: msg.action, topic: msg.channel };
    // A resume (api/streams/wsResume.ts): the blocks channel from the client's last block on.
    if (msg.action !== 'subscribe' || msg.channel !== 'blocks' || typeof msg.since !== 'string')
      throw new ChainError('INVALID_PARAMS', 'since (a string "<height>:<hash>") is taken by a subscription to the blocks channel only');
    return { op: msg.action, topic: msg.channel, since: msg.since };
  },
  topic(raw) {
    if (!API_CHANNELS.includes(raw))
      throw new ChainError('INVALID_PARAMS', `unknown channel ${json(raw).slice(0, 80)}; channels: ${API_CHANNELS.join(', ')}`);
    return raw;
  },
  ack: (type, channel) => ({ type, channel }),
  frames(hub, e, topic) {
    if (!live(e)) return [];
    return hub.memo(e, `api:${topic}`, () => {
      if (topic === 'blocks' && e.type === 'block') return [json({ type: 'block', data: e.block })];
      if (topic === 'blocks' && e.type === 'reorg') return [json(reorgMessage(e))];
      if (topic === 'txs' && e.type === 'tx') return [json({ type: 'tx', data: txSummary(e.tx) })];
      if (topic === 'agent' && e.type === 'block') return agentMessages(e.block).map(json);
      if (topic === 'chat' && e.type === 'block') return chatMessages(e.block).map(json);
      return [];
    });
  },
  snapshot: (hub, s, topic) =>
    topic === 'mempool' ? hub.memo(s, 'api:mempool', () => json({ type: 'mempool', data: { total: s.total, ts: s.ts } })) : null,
};

/** Address and task topics' matches of one event, indexed once for every subscriber. */
function legacyIndex(e: ChainEvent): Map<string, unknown[]> {
  const index = new Map<string, unknown[]>();
  const add = (key: string, v: unknown) => {
    const list = index.get(key);
    if (list) list.push(v);
    else index.set(key, [v]);
  };
  const visit = (tx: SignedTx, blockIndex?: number) => {
    const base = { ...txSummary(tx), ...(blockIndex === undefined ? { status: 'pending' } : { status: 'confirmed', blockIndex }) };
    for (const a of addressesOf(tx)) add(`address:${a}`, { type: 'address_tx', topic: `address:${a}`, data: base });
    const task = taskOfTx(tx);
    if (task !== undefined && blockIndex !== undefined)
      add(`task:${task}`, { type: 'task_tx', topic: `task:${task}`, data: { ...base, taskId: task } });
  };
  // Topics by address use the lower-case form an address may have been sent in any case.
  if (e.type === 'tx') visit(stateTx(e.tx));
  if (e.type === 'block') for (const tx of e.txs) visit(tx, e.block.index);
  return index;
}

/** `/ws`: `{type: subscribe|unsubscribe, topic}`, `{type: ping}`. */
export const legacyDialect: WsDialect = {
  command(msg) {
    if (!isObject(msg) || typeof msg.type !== 'string')
      throw new ChainError('INVALID_PARAMS', 'a message is {type: "subscribe" | "unsubscribe" | "ping", topic?}');
    if (msg.type === 'ping') return { op: 'ping' };
    if (msg.type !== 'subscribe' && msg.type !== 'unsubscribe')
      throw new ChainError('INVALID_PARAMS', `unknown type ${json(msg.type).slice(0, 40)}; types: subscribe, unsubscribe, ping`);
    if (typeof msg.topic !== 'string')
      throw new ChainError('INVALID_PARAMS', `${msg.type} needs a topic: new_block, new_tx, address:<addr>, task:<taskId>`);
    return { op: msg.type, topic: msg.topic };
  },
  topic(raw) {
    if (raw === 'new_block' || raw === 'new_tx') return raw;
    const addr = /^address:(ox[0-9a-fA-F]{40})$/.exec(raw);
    if (addr) return `address:${addr[1].toLowerCase()}`;
    if (/^task:[A-Za-z0-9_-]{1,64}$/.test(raw)) return raw;
    throw new ChainError(
      'INVALID_PARAMS',
      `unknown topic ${json(raw).slice(0, 80)}; topics: new_block, new_tx, address:<addr>, task:<taskId>`,
    );
  },
  ack: (type, topic) => ({ type, topic }),
  frames(hub, e, topic) {
    if (!live(e)) return [];
    if (topic === 'new_block' || topic === 'new_tx') {
      return hub.memo(e, `legacy:${topic}`, () => {
        if (topic === 'new_block' && e.type === 'block') return [json({ type: 'new_block', data: e.block })];
        if (topic === 'new_block' && e.type === 'reorg') return [json(reorgMessage(e))];
        if (topic === 'new_tx' && e.type === 'tx') return [json({ type: 'new_tx', data: txSummary(e.tx) })];
        return [];
      });
    }
    if (e.type !== 'tx' && e.type !== 'block') return [];
    const matches = hub.memo(e, 'legacy:index', () => legacyIndex(e)).get(topic);
    return matches ? hub.memo(e, `legacy:${topic}`, () => matches.map(json)) : [];
  },
  snapshot: () => null,
};
