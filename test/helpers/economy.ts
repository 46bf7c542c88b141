/**
 * Builders of the AI economy's transactions for the API tests: each signs with the sender's next
 * nonce (pending included) at the chain's clock and submits through the node's validation.
 */
import { sha256Hex } from '../../core/hash.ts';
import type { Task } from '../../core/state.ts';
import { agentRunIdOf } from '../../core/tx/agent/agent.ts';
import type { SignedTx, TxContext } from '../../core/tx/handler.ts';
import { minerIdOf } from '../../core/tx/miner.ts';
import { expectedRewards, taskIdOf } from '../../core/tx/task/task.ts';
import { signTx } from '../../core/txCodec.ts';
import { DEV_KEYS, type TestChain } from './testChain.ts';
import { nextNonce } from './apiSupport.ts';

/** Signs and submits a transaction of `type` from dev key `i`. */
export async function send(c: TestChain, i: number, type: string, fields: Record<string, unknown>): Promise<SignedTx> {
  const key = DEV_KEYS[i];
  const tx = signTx({ type, from: key.address, ...fields, nonce: nextNonce(c, i), timestamp: c.now() }, key);
  return c.node.submitTx(tx);
}

/** Registers dev key `i` as a miner; returns its miner id. */
export async function registerMiner(c: TestChain, i: number, capabilities: string[] = ['chat']): Promise<string> {
  const tx = await send(c, i, 'MINER_REGISTER', { name: `miner-${i}`, capabilities, fee: '1000' });
  return minerIdOf(tx.hash);
}

/** Submits a task from dev key `i`; returns the tx and the task id. */
export async function submitTask(c: TestChain, i: number, over: Record<string, unknown> = {}): Promise<{ tx: SignedTx; taskId: string }> {
  const tx = await send(c, i, 'TASK_SUBMIT', { taskType: 'chat', prompt: 'What is 2 + 2?', fee: '20000', ...over });
  return { tx, taskId: taskIdOf(tx) };
}

/** A response from miner dev key `i`. */
export function respond(c: TestChain, i: number, taskId: string, content: string, extra: Record<string, unknown> = {}): Promise<SignedTx> {
  const minerId = c.node.state().accounts.get(DEV_KEYS[i].address)!.minerId!;
  return send(c, i, 'TASK_RESPONSE', { taskId, minerId, contentHash: sha256Hex(content), content, ...extra, fee: '1000' });
}

/** The dev authority validates: `best` wins, every responder scored. */
function validate(c: TestChain, taskId: string, best: string, scores: { minerId: string; score: number }[]): Promise<SignedTx> {
  return send(c, 0, 'TASK_VALIDATE', { taskId, bestMinerId: best, scores, fee: '1000' });
}

/** The dev authority pays out exactly the expected split. */
function reward(c: TestChain, taskId: string): Promise<SignedTx> {
  const task = c.node.state().records.tasks.get(taskId) as Task;
  const rewards = expectedRewards(task, c.node.nextHeight(), { genesis: c.genesis } as TxContext);
  return send(c, 0, 'TASK_REWARD', { taskId, rewards, fee: '1000' });
}

/** Runs a task through submit, two responses (dev 2 and 3, dev 2 best), validation and reward. */
export async function fullTask(
  c: TestChain,
  over: Record<string, unknown> = {},
  contents = ['4', 'four'],
): Promise<{ taskId: string; submit: SignedTx; responses: SignedTx[]; validation: SignedTx; reward: SignedTx }> {
  const { tx: submit, taskId } = await submitTask(c, 1, over);
  await c.produce();
  const responses = [
    await respond(c, 2, taskId, contents[0], { model: 'm-1', tokensIn: 5, tokensOut: 1, durationMs: 40 }),
    await respond(c, 3, taskId, contents[1]),
  ];
  await c.produce();
  const [m2, m3] = [2, 3].map((i) => c.node.state().accounts.get(DEV_KEYS[i].address)!.minerId!);
  const validation = await validate(c, taskId, m2, [
    { minerId: m2, score: 90 },
    { minerId: m3, score: 60 },
  ]);
  await c.produce();
  const paid = await reward(c, taskId);
  await c.produce();
  return { taskId, submit, responses, validation, reward: paid };
}

/** Opens an agent run from dev key `i`; returns its id. */
export async function requestRun(
  c: TestChain,
  i: number,
  over: Record<string, unknown> = {},
): Promise<{ tx: SignedTx; agentRunId: string }> {
  const prompt = (over.prompt as string | undefined) ?? 'summarise block 1';
  const agentRunId = agentRunIdOf(DEV_KEYS[i].address, nextNonce(c, i), prompt);
  const tx = await send(c, i, 'AGENT_REQUEST', {
    agentRunId,
    conversationId: sha256Hex(`conv-${agentRunId}`),
    prompt,
    toolsWhitelist: ['chain_get_block'],
    maxFee: '100000',
    maxSteps: 5,
    ...over,
  });
  return { tx, agentRunId };
}

/** A hash from a label, for outputHash, argsHash and the like. */
export const h = (label: string): string => sha256Hex(label);
