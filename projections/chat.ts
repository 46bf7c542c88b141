/**
 * Conversations and turns (sixth fork), folded from CHAT_TURN transactions:
 *
 * - `k!<conversationId>`: the conversation record plus the authors seen in it;
 * - `t!<conversationId>!<order>`: each turn, `order` = `<height>!<position>` (chronological);
 * - `a!<author>!<order>` -> conversationId, written at an author's first turn in a conversation.
 *
 * A conversation exists from its first CHAT_TURN; its creator is that turn's sender. An
 * AGENT_REQUEST naming a conversationId does not create one. Turn timestamps are the
 * transactions' own; order is chain order. In memory: a bounded cache of conversation records
 * (`ChatState`); readers read the rows.
 */
import { heightKey } from '../core/encoding.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';

/** The conversation record as served. */
export interface Conversation {
  conversationId: string;
  creator: string;
  turnCount: number;
  firstTurnAt: number;
  lastTurnAt: number;
}

/** A turn as served. */
export interface Turn {
  hash: string;
  from: string;
  role: string;
  content: string;
  agentRunId: string | null;
  parentTurnHash: string | null;
  timestamp: number;
  blockIndex: number;
}

/** A conversation row: the record and its authors. */
export type ConversationRow = Conversation & { authors: string[] };

/**
 * The conversations the fold holds in memory: a bounded cache over the `k!` rows. At most `cap`
 * (ChainInfo.recordCache; absent: every one), least recently turned first out; one the cache
 * lost is read back from its row before the block that turns in it is folded (`needs`/`take`:
 * the runner's `prepare`), so the fold never mistakes an evicted conversation for a new one.
 */
export interface ChatState {
  cap: number;
  /** Conversations by id, least recently turned first. */
  convs: Map<string, ConversationRow>;
  /** Ids read back and found absent: new conversations of the block about to be folded. */
  absent: Set<string>;
}

const rowKey = (id: string): string => `k!${id}`;

/** Conversations, turns and each author's conversations. */
export const chatProjection: Projection<ChatState> = {
  name: 'chat',
  version: 1,
  init: (info) => ({ cap: info.recordCache ?? Number.POSITIVE_INFINITY, convs: new Map(), absent: new Set() }),
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const { block } = ev;
    ev.txs.forEach((tx, i) => {
      if (tx.type !== 'CHAT_TURN') return;
      const id = tx.conversationId as string;
      const order = `${heightKey(block.index)}!${i.toString().padStart(5, '0')}`;
      const prev = s.convs.get(id);
      if (!prev && s.cap !== Number.POSITIVE_INFINITY && !s.absent.delete(id))
        throw new Error(`chat: conversation ${id} is not loaded (fold after the runner's prepare)`);
      const conv: ConversationRow = prev
        ? {
            ...prev,
            turnCount: prev.turnCount + 1,
            lastTurnAt: tx.timestamp,
            authors: prev.authors.includes(tx.from) ? prev.authors : [...prev.authors, tx.from],
          }
        : { conversationId: id, creator: tx.from, turnCount: 1, firstTurnAt: tx.timestamp, lastTurnAt: tx.timestamp, authors: [tx.from] };
      if (!prev?.authors.includes(tx.from)) ops.push({ type: 'put', key: `a!${tx.from}!${order}`, value: id });
      // Re-inserted: the map's order is the order of last turns, the eviction order.
      s.convs.delete(id);
      s.convs.set(id, conv);
      const turn: Turn = {
        hash: tx.hash,
        from: tx.from,
        role: tx.role as string,
        content: tx.content as string,
        agentRunId: typeof tx.agentRunId === 'string' ? tx.agentRunId : null,
        parentTurnHash: typeof tx.parentTurnHash === 'string' ? tx.parentTurnHash : null,
        timestamp: tx.timestamp,
        blockIndex: block.index,
      };
      ops.push({ type: 'put', key: `t!${id}!${order}`, value: turn }, { type: 'put', key: rowKey(id), value: conv });
    });
    // Every row evicted here was written by this block or an earlier one: `prepare` reads it back.
    for (const id of s.convs.keys()) {
      if (s.convs.size <= s.cap) break;
      s.convs.delete(id);
    }
    return { state: s, ops };
  },
  needs(s, ev) {
    if (s.cap === Number.POSITIVE_INFINITY) return [];
    const keys = new Set<string>();
    for (const tx of ev.txs)
      if (tx.type === 'CHAT_TURN' && !s.convs.has(tx.conversationId as string) && !s.absent.has(tx.conversationId as string))
        keys.add(rowKey(tx.conversationId as string));
    return [...keys];
  },
  take(s, rows) {
    for (const [key, row] of rows) {
      const id = key.slice(2);
      if (row === undefined) s.absent.add(id);
      else s.convs.set(id, row as ConversationRow);
    }
  },
  async restore(rows, info) {
    const s = chatProjection.init(info);
    // A bounded cache starts empty (conversations are read back as they turn); a complete one
    // reads the conversation rows only: past the authors' index (seek, where the rows can) and
    // up to the turns.
    if (s.cap !== Number.POSITIVE_INFINITY) return s;
    (rows as { seek?: (k: string) => void }).seek?.('k!');
    for await (const [key, value] of rows) {
      if (key > 'k!~') break;
      if (key.startsWith('k!')) s.convs.set(key.slice(2), value as ConversationRow);
    }
    return s;
  },
};

/** The served conversation record (without the authors). */
export function conversationRecord(row: ConversationRow): Conversation {
  return {
    conversationId: row.conversationId,
    creator: row.creator,
    turnCount: row.turnCount,
    firstTurnAt: row.firstTurnAt,
    lastTurnAt: row.lastTurnAt,
  };
}
