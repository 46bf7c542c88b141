/** Agent runs (sixth fork): AGENT_REQUEST, AGENT_CLAIM, AGENT_STEP, AGENT_FINISH (schemas). */
import { AGENT_NETWORK_FEE_PER_STEP, AGENT_REWARD_PER_TOKEN } from '../economics.ts';
import { ChainError } from '../errors.ts';
import { settleRun } from '../expiry.ts';
import { sha256Hex } from '../hash.ts';
import { f, defineTx } from '../schema.ts';
import type { AgentRun } from '../state.ts';
import { feeOf, payFee, type SignedTx, type StateReader, type TxHandler } from './handler.ts';
import { checkAgentTransition } from './agentMachine.ts';

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
  fields: {
    from: f.address(),
    agentRunId: f.hex(64),
    modelInfo: f.text(128),
    hardwareTier: f.text(32),
    fee: f.amount(),
    nonce: f.uint(),
    timestamp: f.uint(),
  },
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

const refuse = (msg: string): never => {
  throw new ChainError('VALIDATION_FAILED', msg);
};

/** agentRunId = hex SHA-256 of the UTF-8 bytes of from + nonce + prompt.slice(0, 256). */
export function agentRunIdOf(from: string, nonce: number, prompt: string): string {
  return sha256Hex(from + nonce + prompt.slice(0, 256));
}

function runOf(state: StateReader, tx: SignedTx): AgentRun | undefined {
  return state.get('runs', tx.agentRunId as string) as AgentRun | undefined;
}

const requestHandler: TxHandler = {
  schema: AGENT_REQUEST,
  executable: true,
  cost: (tx) => ({ balance: BigInt(tx.maxFee as string), storage: 0n }),
  check(tx, state) {
    if (tx.agentRunId !== agentRunIdOf(tx.from, tx.nonce, tx.prompt as string))
      refuse('agentRunId must be SHA-256(from + nonce + prompt[:256])');
    checkAgentTransition(runOf(state, tx), 'AGENT_REQUEST');
    if (BigInt(tx.maxFee as string) < AGENT_NETWORK_FEE_PER_STEP) refuse(`maxFee must be at least ${AGENT_NETWORK_FEE_PER_STEP}`);
  },
  apply(tx, s, ctx) {
    const maxFee = BigInt(tx.maxFee as string);
    s.account(tx.from).balance -= maxFee;
    s.supply.escrow += maxFee;
    s.put('runs', tx.agentRunId as string, {
      agentRunId: tx.agentRunId as string,
      conversationId: tx.conversationId as string,
      submitter: tx.from,
      maxFee: maxFee.toString(),
      maxSteps: tx.maxSteps as number,
      status: 'pending',
      submittedAt: ctx.timestamp,
      requestTxHash: tx.hash,
      stepCount: 0,
      stepTokensOut: 0,
      totalTokensOut: 0,
      networkFee: '0',
      minerReward: '0',
      userRefund: '0',
    });
  },
};

const claimHandler: TxHandler = {
  schema: AGENT_CLAIM,
  executable: true,
  cost: (tx) => ({ balance: feeOf(tx), storage: 0n }),
  check(tx, state) {
    const run = runOf(state, tx);
    if (run && run.status !== 'pending' && run.minerAddress)
      refuse(`AGENT_CLAIM is not allowed: run ${run.agentRunId} is ${run.status}, claimed by ${run.minerAddress}`);
    checkAgentTransition(run, 'AGENT_CLAIM');
    if (!state.peek(tx.from).minerId) refuse('only a registered miner may claim a run (send MINER_REGISTER first)');
  },
  apply(tx, s, ctx) {
    const run = runOf(s, tx)!;
    s.put('runs', run.agentRunId, {
      ...run,
      status: 'claimed',
      minerAddress: tx.from,
      minerId: s.peek(tx.from).minerId,
      claimedAt: ctx.timestamp,
      lastActivityAt: ctx.timestamp,
    });
    payFee(s, tx.from, feeOf(tx), ctx);
  },
};

const stepHandler: TxHandler = {
  schema: AGENT_STEP,
  executable: true,
  cost: (tx) => ({ balance: feeOf(tx), storage: 0n }),
  check(tx, state) {
    const run = runOf(state, tx);
    checkAgentTransition(run, 'AGENT_STEP');
    if (tx.from !== run!.minerAddress) refuse(`only the claiming miner ${run!.minerAddress} may add steps`);
    if (tx.stepIndex !== run!.stepCount) refuse(`stepIndex must be ${run!.stepCount}`);
    if (run!.stepCount >= run!.maxSteps) refuse(`run ${run!.agentRunId} already took its ${run!.maxSteps} steps`);
  },
  apply(tx, s, ctx) {
    const run = runOf(s, tx)!;
    const stepTokensOut = run.stepTokensOut + (tx.outputTokens as number);
    const networkFee = BigInt(run.networkFee) + AGENT_NETWORK_FEE_PER_STEP;
    const next: AgentRun = {
      ...run,
      status: 'running',
      stepCount: run.stepCount + 1,
      stepTokensOut,
      totalTokensOut: stepTokensOut,
      networkFee: networkFee.toString(),
      lastActivityAt: ctx.timestamp,
    };
    const spent = BigInt(stepTokensOut) * AGENT_REWARD_PER_TOKEN + networkFee;
    // The escrow is exhausted: the run ends here and the miner is paid what is left.
    if (spent >= BigInt(run.maxFee))
      settleRun(s, next, 'insufficient_funds', BigInt(stepTokensOut) * AGENT_REWARD_PER_TOKEN, ctx.timestamp);
    else s.put('runs', run.agentRunId, next);
    payFee(s, tx.from, feeOf(tx), ctx);
  },
};

const finishHandler: TxHandler = {
  schema: AGENT_FINISH,
  executable: true,
  cost: (tx) => ({ balance: feeOf(tx), storage: 0n }),
  check(tx, state) {
    const run = runOf(state, tx);
    const outcome = tx.outcome as 'completed' | 'failed' | 'cancelled';
    checkAgentTransition(run, `AGENT_FINISH ${outcome}`);
    if (outcome === 'cancelled') {
      if (tx.from !== run!.submitter) refuse(`only the submitter ${run!.submitter} may cancel a run`);
      if (tx.totalTokensOut !== 0) refuse('a cancellation carries totalTokensOut 0: the miner is paid for its steps');
    } else {
      if (tx.from !== run!.minerAddress) refuse(`only the claiming miner ${run!.minerAddress} may finish a run`);
      if ((tx.totalTokensOut as number) < run!.stepTokensOut) refuse(`totalTokensOut must be at least the steps' ${run!.stepTokensOut}`);
    }
  },
  apply(tx, s, ctx) {
    const run = runOf(s, tx)!;
    const outcome = tx.outcome as 'completed' | 'failed' | 'cancelled';
    if (outcome === 'completed')
      settleRun(
        s,
        run,
        'completed',
        BigInt(tx.totalTokensOut as number) * AGENT_REWARD_PER_TOKEN,
        ctx.timestamp,
        tx.totalTokensOut as number,
      );
    else if (outcome === 'failed') settleRun(s, run, 'failed', 0n, ctx.timestamp, run.stepTokensOut);
    else
      settleRun(
        s,
        run,
        'cancelled',
        run.minerAddress ? BigInt(run.stepTokensOut) * AGENT_REWARD_PER_TOKEN : 0n,
        ctx.timestamp,
        run.stepTokensOut,
      );
    payFee(s, tx.from, feeOf(tx), ctx);
  },
};

/** The agent run handlers. */
export const agentHandlers: TxHandler[] = [requestHandler, claimHandler, stepHandler, finishHandler];
