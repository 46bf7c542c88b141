/**
 * Message shapes of the WebSocket channels, derived from the node's events. The spec shows only
 * `blocks` (`{type: 'block', data: <block>}`); the others are defined here and in docs/http.md ("Live events").
 * The agent and chat channels read AGENT_* and CHAT_TURN transactions of new blocks by type.
 */
import type { Block } from '../../core/block.ts';
import { CHAT_TURN } from '../../core/tx/chat.ts';
import { isTx, type SignedTx } from '../../core/tx/handler.ts';
import { txEvents } from '../../core/tx/registry.ts';
import { TASK_SUBMIT, taskIdOf } from '../../core/tx/task/task.ts';
import type { ReorgEvent } from '../../projections/events.ts';

/** A transaction as the `txs` channel, `new_tx` and the address/task topics show it. */
export interface TxSummary {
  type: string;
  hash: string;
  from: string;
  to?: string;
  amount?: string;
  fee?: string;
  nonce: number;
  timestamp: number;
}

/** `{type, hash, from, to?, amount?, fee?, nonce, timestamp}`: optional fields only when the type has them. */
export function txSummary(tx: SignedTx): TxSummary {
  return {
    type: tx.type,
    hash: tx.hash,
    from: tx.from,
    ...(typeof tx.to === 'string' ? { to: tx.to } : {}),
    ...(typeof tx.amount === 'string' ? { amount: tx.amount } : {}),
    ...(typeof tx.fee === 'string' ? { fee: tx.fee } : {}),
    nonce: tx.nonce,
    timestamp: tx.timestamp,
  };
}

/** The value of an optional field, if present. */
function pick(t: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (t[n] !== undefined) out[n] = t[n];
  return out;
}

/** The agent-run update event each transaction type announces (its definition's `event`, core/tx/agent/agent.ts). */
const AGENT_EVENTS = txEvents('agent');

/**
 * `agent` channel: `{type: 'agent', data: {event, agentRunId, blockIndex, txHash, miner, timestamp,
 * ...}}` per AGENT_CLAIM (+ modelInfo, hardwareTier), AGENT_STEP (+ stepIndex, outputTokens,
 * outputHash, toolCalls) and AGENT_FINISH (+ outcome, totalTokensOut, finalAnswerInline) in a new block.
 */
export function agentMessages(block: Block): { type: 'agent'; data: Record<string, unknown> }[] {
  const out: { type: 'agent'; data: Record<string, unknown> }[] = [];
  for (const tx of block.transactions) {
    const kind = AGENT_EVENTS.get(tx.type);
    if (!kind || typeof tx.agentRunId !== 'string') continue;
    out.push({
      type: 'agent',
      data: {
        event: kind.event,
        agentRunId: tx.agentRunId,
        blockIndex: block.index,
        txHash: tx.hash,
        miner: tx.from,
        timestamp: tx.timestamp,
        ...pick(tx, kind.fields),
      },
    });
  }
  return out;
}

/** Fields of a chat turn, as the spec's Turn record names them. */
const TURN_FIELDS = ['conversationId', 'role', 'content', 'agentRunId'];

/** `chat` channel: `{type: 'chat', data: {hash, from, conversationId, role, content, agentRunId?, timestamp, blockIndex}}` per CHAT_TURN in a new block. */
export function chatMessages(block: Block): { type: 'chat'; data: Record<string, unknown> }[] {
  return block.transactions
    .filter((tx) => isTx(tx, CHAT_TURN))
    .map((tx) => ({
      type: 'chat' as const,
      data: {
        hash: tx.hash,
        from: tx.from,
        ...pick(tx, TURN_FIELDS),
        timestamp: tx.timestamp,
        blockIndex: block.index,
      },
    }));
}

/** `{type: 'reorg', data: {fromHeight, oldHead, newHead, dropped}}` on `blocks` and `new_block`. */
export function reorgMessage(e: ReorgEvent): { type: 'reorg'; data: Omit<ReorgEvent, 'type'> } {
  return { type: 'reorg', data: { fromHeight: e.fromHeight, oldHead: e.oldHead, newHead: e.newHead, dropped: e.dropped } };
}

/** Every address a transaction names (from, to and any other address-valued field), lowercase. */
export function addressesOf(tx: SignedTx): Set<string> {
  const out = new Set<string>();
  for (const v of Object.values(tx)) if (typeof v === 'string' && /^ox[0-9a-f]{40}$/.test(v)) out.add(v);
  return out;
}

/** The task a transaction belongs to: its `taskId`, or for a TASK_SUBMIT without one, core's id of it. */
export function taskOfTx(tx: SignedTx): string | undefined {
  if (typeof tx.taskId === 'string' || isTx(tx, TASK_SUBMIT)) return taskIdOf(tx);
  return undefined;
}
