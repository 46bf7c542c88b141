/**
 * The agent part of a simulation: dev key 5 requests runs in the chat's conversation, a miner
 * claims each and sends its steps with tool calls, then finishes it (some runs are cancelled by
 * the requester or fail), and the answer goes into the conversation as the assistant's turn.
 */
import { sha256Hex } from '../core/hash.ts';
import type { SimSend } from './socialSim.ts';

/** The agent runs of a simulation, served by the miners `miners` (dev key indexes). */
export class AgentTraffic {
  private readonly send: SimSend;
  private readonly rnd: () => number;
  private readonly miners: readonly number[];
  private readonly conversation: () => string;
  /** Runs requested and not finished yet. */
  open = 0;

  constructor(send: SimSend, rnd: () => number, miners: readonly number[], conversation: () => string) {
    this.send = send;
    this.rnd = rnd;
    this.miners = miners;
    this.conversation = conversation;
  }

  /** Requests a run from dev key 5 (sometimes cancelled by it, sometimes failed by its miner). */
  async request(): Promise<void> {
    const prompt = `agent job #${Math.floor(this.rnd() * 1e6)}: summarise recent blocks`;
    const cancel = this.rnd() < 0.1;
    const fail = !cancel && this.rnd() < 0.1;
    const maxSteps = 1 + Math.floor(this.rnd() * 4);
    let runId = '';
    this.open++;
    const tx = await this.send(
      5,
      {
        type: 'AGENT_REQUEST',
        conversationId: this.conversation(),
        prompt,
        toolsWhitelist: ['chain_get_block', 'math_eval'],
        maxFee: '200000',
        maxSteps,
      },
      async () => {
        if (cancel) {
          await this.send(
            5,
            { type: 'AGENT_FINISH', agentRunId: runId, outcome: 'cancelled', finalAnswerInline: '', totalTokensOut: 0, fee: '1000' },
            async () => void this.open--,
          );
          return;
        }
        const miner = this.miners[Math.floor(this.rnd() * this.miners.length)];
        await this.send(
          miner,
          { type: 'AGENT_CLAIM', agentRunId: runId, modelInfo: 'sim-llm-1', hardwareTier: 'desktop', fee: '1000' },
          () => this.step(miner, runId, 0, maxSteps, 0, fail),
        );
      },
    );
    if (tx) runId = String(tx.agentRunId);
    else this.open--;
  }

  /** Step `index` of a run, or its finish and the assistant's chat turn once `maxSteps` are done. */
  private async step(miner: number, runId: string, index: number, maxSteps: number, tokens: number, fail: boolean): Promise<void> {
    if (index >= maxSteps) {
      const answer = fail ? '' : `final answer for ${runId.slice(0, 8)}`;
      await this.send(
        miner,
        {
          type: 'AGENT_FINISH',
          agentRunId: runId,
          outcome: fail ? 'failed' : 'completed',
          finalAnswerInline: answer,
          totalTokensOut: tokens + 10,
          fee: '1000',
        },
        async () => {
          this.open--;
          await this.send(6, {
            type: 'CHAT_TURN',
            conversationId: this.conversation(),
            role: 'assistant',
            content: answer || 'the agent failed',
            agentRunId: runId,
            fee: '1000',
          });
        },
      );
      return;
    }
    const out = 10 + Math.floor(this.rnd() * 200);
    const toolCalls = [
      {
        name: 'chain_get_block',
        argsHash: sha256Hex(`${runId}${index}a`),
        resultHash: sha256Hex(`${runId}${index}r`),
        durationMs: 5 + index,
        ok: true,
      },
    ];
    await this.send(
      miner,
      {
        type: 'AGENT_STEP',
        agentRunId: runId,
        stepIndex: index,
        outputTokens: out,
        outputHash: sha256Hex(`${runId}:${index}`),
        toolCalls,
        fee: '1000',
      },
      () => this.step(miner, runId, index + 1, maxSteps, tokens + out, fail),
    );
  }
}
