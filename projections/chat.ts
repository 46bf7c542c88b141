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
import { evictOldest, noteUse } from '../core/recency.ts';
import { CHAT_TURN } from '../core/tx/chat.ts';
import { isTx } from '../core/tx/handler.ts';
import type { BlockEvent } from './events.ts';
import type { KvOp, Projection } from './projection.ts';
import { row, rowGroup } from './rows.ts';

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
  /** Conversations by id, least recently turned first (as core/recency.ts orders them). */
  convs: Map<string, ConversationRow>;
  /** Conversations turned again since the last eviction pass (undefined: unbounded). */
  used?: Set<string>;
  /** Ids read back and found absent: new conversations of the block about to be folded. */
  absent: Set<string>;
}

/** `k!<conversationId>`: the conversation record and its authors. */
export const conversationRow = row<ConversationRow>('k!');
/** `t!<conversationId>!<order>`: a conversation's turns (read up to `t!<id>!~`). */
export const turnRows = rowGroup<Turn>((conversationId) => `t!${conversationId}!`, String, '~');
/** `a!<author>!<order>` -> conversationId, at an author's first turn in it (read up to `a!<author>!~`). */
export const authorConversationRows = rowGroup<string>((author) => `a!${author}!`, String, '~');

/** Conversations, turns and each author's conversations. */
export const chatProjection: Projection<ChatState> = {
  name: 'chat',
  version: 1,
  init: (info) => {
    const cap = info.recordCache ?? Number.POSITIVE_INFINITY;
    return { cap, convs: new Map(), absent: new Set(), used: cap === Number.POSITIVE_INFINITY ? undefined : new Set() };
  },
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const { block } = ev;
    ev.txs.forEach((tx, i) => {
      if (!isTx(tx, CHAT_TURN)) return;
      const id = tx.conversationId;
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
      if (!prev?.authors.includes(tx.from)) ops.push(authorConversationRows.put(tx.from, order, id));
      noteUse(s.convs, s.used, id, conv);
      const turn: Turn = {
        hash: tx.hash,
        from: tx.from,
        role: tx.role,
        content: tx.content,
        agentRunId: typeof tx.agentRunId === 'string' ? tx.agentRunId : null,
        parentTurnHash: typeof tx.parentTurnHash === 'string' ? tx.parentTurnHash : null,
        timestamp: tx.timestamp,
        blockIndex: block.index,
      };
      ops.push(turnRows.put(id, order, turn), conversationRow.put(id, conv));
    });
    // Every row evicted here was written by this block or an earlier one: `prepare` reads it back.
    evictOldest(s.convs, s.used, s.convs.size - s.cap);
    return { state: s, ops };
  },
  needs(s, ev) {
    if (s.cap === Number.POSITIVE_INFINITY) return [];
    const keys: string[] = [];
    for (const tx of ev.txs)
      if (isTx(tx, CHAT_TURN) && !s.convs.has(tx.conversationId) && !s.absent.has(tx.conversationId))
        keys.push(conversationRow.key(tx.conversationId));
    // Each once (a conversation may turn twice in a block); most blocks name none.
    return keys.length > 1 ? [...new Set(keys)] : keys;
  },
  take(s, rows) {
    for (const [key, row] of rows) {
      const id = conversationRow.idOf(key);
      if (row === undefined) s.absent.add(id);
      else s.convs.set(id, conversationRow.value(row));
    }
  },
  async restore(rows, info) {
    const s = chatProjection.init(info);
    // A bounded cache starts empty (conversations are read back as they turn); a complete one
    // reads the conversation rows only: past the authors' index (seek, where the rows can) and
    // up to the turns.
    if (s.cap !== Number.POSITIVE_INFINITY) return s;
    if ('seek' in rows && typeof rows.seek === 'function') rows.seek(conversationRow.prefix);
    for await (const [key, value] of rows) {
      if (key > 'k!~') break;
      if (conversationRow.owns(key)) s.convs.set(conversationRow.idOf(key), conversationRow.value(value));
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
