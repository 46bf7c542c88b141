/**
 * Image and audio NFTs in tests: upload a file through the blob store in chunks out of order,
 * run a rewarded image/audio task whose best answer names the blob, and build the mint's fields.
 */
import { sha256Hex } from '../../core/hash.ts';
import type { MediaFacts } from '../../core/media/mediaFacts.ts';
import type { SignedTx } from '../../core/tx/handler.ts';
import { signTx } from '../../core/txCodec.ts';
import { blobChunkTx, testBlob } from './blobKit.ts';
import { DEV_KEYS, type TestChain } from './testChain.ts';
import { fullTask } from './economy.ts';
import { nextNonce } from './apiSupport.ts';

/**
 * Uploads `bytes` from dev key `i` as SOCIAL_BLOB chunks of a third of the file (at least three),
 * last chunk first, over two blocks; `leave` chunk indexes are never sent (an incomplete blob).
 */
export async function uploadBlob(c: TestChain, i: number, bytes: Uint8Array, contentType: string, leave: number[] = []): Promise<string> {
  const b = testBlob(bytes, Math.ceil(bytes.length / 3), contentType, sha256Hex(`blob:${sha256Hex(bytes)}:${i}:${leave.join()}`));
  const order = [b.totalChunks - 1, ...Array.from({ length: b.totalChunks - 1 }, (_, k) => k).reverse()].filter((k) => !leave.includes(k));
  for (const [n, index] of order.entries()) {
    await c.node.submitTx(blobChunkTx(DEV_KEYS[i], b, index, nextNonce(c, i)));
    if (n === 0) await c.produce();
  }
  await c.produce();
  return b.blobId;
}

/** A rewarded `taskType` task of dev 1 whose best answer (miner dev 2) is `blobId`. */
export async function mediaTask(
  c: TestChain,
  taskType: 'image' | 'audio',
  blobId: string,
  prompt = `make ${taskType} ${blobId.slice(0, 8)}`,
) {
  const run = await fullTask(c, { taskType, prompt }, [blobId, sha256Hex('a worse answer')]);
  const task = c.node.state().records.tasks.get(run.taskId)!;
  return { ...run, prompt, minerId: task.bestMinerId!, seedHash: sha256Hex(prompt + task.bestMinerId + run.reward.hash) };
}

/** The token id of a mint, as core/tx/media.ts derives it. */
function tokenIdOf(taskId: string, blobId: string, facts: MediaFacts): string {
  return 'width' in facts
    ? sha256Hex(`${taskId}${blobId}${facts.format}${facts.width}x${facts.height}`)
    : sha256Hex(`${taskId}${blobId}${facts.format}${facts.durationMs}`);
}

/** The fields of the IMAGE_MINT / AUDIO_MINT claiming `facts` for a task's blob (fee included). */
export function mintFields(t: { taskId: string; minerId: string; seedHash: string }, blobId: string, facts: MediaFacts, owner: string) {
  const claims =
    'width' in facts ? { width: facts.width, height: facts.height } : { durationMs: facts.durationMs, sampleRate: facts.sampleRate };
  return {
    type: 'width' in facts ? 'IMAGE_MINT' : 'AUDIO_MINT',
    fields: {
      tokenId: tokenIdOf(t.taskId, blobId, facts),
      blobId,
      format: facts.format,
      ...claims,
      owner,
      taskId: t.taskId,
      minerId: t.minerId,
      seedHash: t.seedHash,
      fee: '1000',
    },
  };
}

/** A signed mint from dev key `i` at its next nonce (not submitted). */
export function signedMint(c: TestChain, i: number, m: ReturnType<typeof mintFields>, over: Record<string, unknown> = {}): SignedTx {
  const key = DEV_KEYS[i];
  return signTx({ type: m.type, from: key.address, ...m.fields, ...over, nonce: nextNonce(c, i), timestamp: c.now() }, key) as SignedTx;
}
