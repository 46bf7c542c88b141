/** Shared checks of the crash matrix: the kill hook's path, and read models against a replay. */
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import type { OmbraNode } from '../../node/node.ts';

/** The module child processes load with `node --import` to be killed before a chosen write. */
export const CRASH_HOOK = fileURLToPath(new URL('./crashHook.ts', import.meta.url));

/**
 * Asserts that every read model a reopened node serves equals what a replay from genesis (all
 * signatures verified, each state root checked) rebuilds; the node is left on the replayed models.
 */
export async function assertReadModelsEqualReplay(node: OmbraNode, what = 'read models equal a replay'): Promise<void> {
  const served = await node.runner.dump();
  await node.runner.resetAll();
  await node.catchUp(undefined, { verifySignatures: true });
  assert.deepEqual(await node.runner.dump(), served, what);
}
