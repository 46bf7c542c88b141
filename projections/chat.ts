/**
 * Conversations and turns (sixth fork), folded from CHAT_TURN transactions:
 *
 * - `k!<conversationId>`: the conversation record plus the authors seen in it;
 * - `t!<conversationId>!<order>`: each turn, `order` = `<height>!<position>` (chronological);
 * - `a!<author>!<order>` -> conversationId, written at an author's first turn in a conversation.
 *
 * A conversation exists from its first CHAT_TURN; its creator is that turn's sender. An
 * AGENT_REQUEST naming a conversationId does not create one. Turn timestamps are the
 * transactions' own; order is chain order. In memory: the conversation records, restored from their
 * rows (a restart reads those, not the turns).
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

/** In-memory conversations by id. */
export type ChatState = Map<string, ConversationRow>;

/** Conversations, turns and each author's conversations. */
export const chatProjection: Projection<ChatState> = {
  name: 'chat',
  version: 1,
  init: () => new Map(),
  apply(s, ev: BlockEvent) {
    const ops: KvOp[] = [];
    const { block } = ev;
    block.transactions.forEach((tx, i) => {
      if (tx.type !== 'CHAT_TURN') return;
      const id = tx.conversationId as string;
      const order = `${heightKey(block.index)}!${i.toString().padStart(5, '0')}`;
      const prev = s.get(id);
      const conv: ConversationRow = prev
        ? {
            ...prev,
            turnCount: prev.turnCount + 1,
            lastTurnAt: tx.timestamp,
            authors: prev.authors.includes(tx.from) ? prev.authors : [...prev.authors, tx.from],
          }
        : { conversationId: id, creator: tx.from, turnCount: 1, firstTurnAt: tx.timestamp, lastTurnAt: tx.timestamp, authors: [tx.from] };
      if (!prev?.authors.includes(tx.from)) ops.push({ type: 'put', key: `a!${tx.from}!${order}`, value: id });
      s.set(id, conv);
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
      ops.push({ type: 'put', key: `t!${id}!${order}`, value: turn }, { type: 'put', key: `k!${id}`, value: conv });
    });
    return { state: s, ops };
  },
  async restore(rows) {
    const s: ChatState = new Map();
    // The conversation rows only: past the authors' index (seek, where the rows can) and up to the turns.
    (rows as { seek?: (k: string) => void }).seek?.('k!');
    for await (const [key, value] of rows) {
      if (key > 'k!~') break;
      if (key.startsWith('k!')) s.set(key.slice(2), value as ConversationRow);
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
