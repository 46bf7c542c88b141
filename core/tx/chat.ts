/** CHAT_TURN (sixth fork): on-chain conversation turns, each paying CHAT_TURN_FEE to the treasury. */
import { TREASURY_ADDRESS } from '../address.ts';
import { CHAT_TURN_FEE } from '../economics.ts';
import { ChainError } from '../errors.ts';
import { f, defineTx } from '../schema.ts';
import { RUNS } from './agent/agent.ts';
import { defineFamily } from './family.ts';
import { feeOf, payFee, txHandler } from './handler.ts';

/** CHAT_TURN: the live network's order, then fee, nonce, timestamp. */
export const CHAT_TURN = defineTx({
  type: 'CHAT_TURN',
  family: 'chat',
  fork: 6,
  doc: 'One turn of a conversation. Pays CHAT_TURN_FEE (100) to the treasury besides its fee; an agentRunId must name an existing run of the same conversation.',
  fields: {
    from: f.address(),
    conversationId: f.hex(64),
    role: f.oneOf(['user', 'assistant', 'system', 'tool'] as const),
    content: f.text(16_384),
    contentBlobId: f.optional(f.hex(64)),
    parentTurnHash: f.optional(f.hex(64)),
    agentRunId: f.optional(f.hex(64)),
    attachments: f.optional(f.list(8, { type: f.oneOf(['image', 'audio', 'file'] as const), blobId: f.hex(64) })),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
  moneyFlow: '100 (CHAT_TURN_FEE) moves from `from` to the treasury; `fee` moves from `from` to the block proposer.',
});

const turn = txHandler(CHAT_TURN, {
  cost: (tx) => ({ balance: feeOf(tx) + CHAT_TURN_FEE, storage: 0n }),
  check(tx, state) {
    if (tx.agentRunId === undefined) return;
    const run = state.get(RUNS, tx.agentRunId);
    if (!run) throw new ChainError('VALIDATION_FAILED', `agentRunId ${tx.agentRunId} is not a known run`);
    if (run.conversationId !== tx.conversationId)
      throw new ChainError('VALIDATION_FAILED', `run ${tx.agentRunId} belongs to conversation ${run.conversationId}`);
  },
  apply(tx, s, ctx) {
    s.account(tx.from).balance -= CHAT_TURN_FEE;
    s.account(TREASURY_ADDRESS).balance += CHAT_TURN_FEE;
    payFee(s, tx.from, feeOf(tx), ctx);
  },
});

/** On-chain conversations: CHAT_TURN. */
export const chatFamily = defineFamily({ name: 'chat', handlers: [turn] });
