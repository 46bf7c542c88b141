/** Agent runs (sixth fork): AGENT_REQUEST, AGENT_CLAIM, AGENT_STEP, AGENT_FINISH (schemas). */
import { f, defineTx } from '../schema.ts';
import { notExecuted, type TxHandler } from './handler.ts';

/** AGENT_REQUEST: no fee, `maxFee` is the escrow (DESIGN.md's order). */
export const AGENT_REQUEST = defineTx({
  type: 'AGENT_REQUEST',
  family: 'agent',
  fork: 6,
  doc: 'Opens an agent run escrowing `maxFee`; agentRunId = SHA-256(from + nonce + prompt.slice(0, 256)).',
  fields: {
    from: f.address(),
    agentRunId: f.hex(64),
    conversationId: f.hex(64),
    prompt: f.text(16_384, 1),
    toolsWhitelist: f.strings(64, f.pattern(/^[a-z0-9_.-]{1,64}$/, 'a tool name [a-z0-9_.-]{1,64}')),
    maxFee: f.amount(),
    maxSteps: f.uint(200, 1),
    promptBlobId: f.optional(f.hex(64)),
    modelHint: f.optional(f.text(128)),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

export const AGENT_CLAIM = defineTx({
  type: 'AGENT_CLAIM',
  family: 'agent',
  fork: 6,
  doc: 'A miner claims a pending run; the first valid claim wins.',
  fields: { from: f.address(), agentRunId: f.hex(64), modelInfo: f.text(128), hardwareTier: f.text(32), fee: f.amount(), nonce: f.uint(), timestamp: f.uint() },
});

export const AGENT_STEP = defineTx({
  type: 'AGENT_STEP',
  family: 'agent',
  fork: 6,
  doc: 'One loop iteration of a claimed run; costs the run 100 micro-units of network fee.',
  fields: {
    from: f.address(),
    agentRunId: f.hex(64),
    stepIndex: f.uint(199),
    outputTokens: f.uint(),
    outputHash: f.hex(64),
    toolCalls: f.list(32, { name: f.text(64, 1), argsHash: f.hex(64), resultHash: f.hex(64), durationMs: f.uint(), ok: f.bool() }),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

export const AGENT_FINISH = defineTx({
  type: 'AGENT_FINISH',
  family: 'agent',
  fork: 6,
  doc: 'Ends a run and settles maxFee into minerReward, networkFee and userRefund.',
  fields: {
    from: f.address(),
    agentRunId: f.hex(64),
    outcome: f.oneOf(['completed', 'failed', 'cancelled'] as const),
    finalAnswerInline: f.text(16_384),
    totalTokensOut: f.uint(),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
});

export const agentHandlers: TxHandler[] = [AGENT_REQUEST, AGENT_CLAIM, AGENT_STEP, AGENT_FINISH].map(notExecuted);
