/**
 * The child process of a checkpoint's background verification (checkpoint/checkpointVerifier.ts runs
 * it at low priority): it replays the chain from genesis in a scratch data dir with full
 * validation, fed blocks over IPC, and at the checkpoint's height compares the head hash and every
 * read model's digest (the consensus state's is the `accounts` model's) with the checkpoint file's.
 *
 *   parent -> child  {type: "blocks", json: string[]}   consecutive blocks, each as stored JSON
 *   child -> parent  {type: "imported", height}
 *   parent -> child  {type: "finish"}                   every block up to the checkpoint was sent
 *   child -> parent  {type: "result", mismatches: string[], digests}
 *   child -> parent  {type: "ready", height} once open; {type: "error", message} on a fault
 */
import type { Genesis } from '../core/genesis.ts';
import { type CheckpointHeader, ModelDigests, readCheckpoint, rowValue } from './checkpointFile.ts';
import { OmbraNode } from '../node/node.ts';
import { errorMessage } from '../core/errors.ts';

/** What the parent passes as arguments: the scratch LevelDB directory and the checkpoint file. */
export type ReplayMessage = { type: 'blocks'; json: string[] } | { type: 'finish' };

/** What the child answers. */
export type ReplayAnswer =
  | { type: 'ready'; height: number }
  | { type: 'imported'; height: number }
  | { type: 'result'; mismatches: string[]; digests: Record<string, string> }
  | { type: 'error'; message: string };

/** The digests of the checkpoint file's read models. */
async function fileDigests(file: string): Promise<{ header: CheckpointHeader; genesis: Genesis; digests: Record<string, string> }> {
  const { header, rows } = await readCheckpoint(file);
  const d = new ModelDigests();
  let genesis: Genesis | undefined;
  for await (const chunk of rows)
    for (const [space, key, stored] of chunk) {
      const value = rowValue(stored);
      if (space === 'meta' && key === 'genesis') genesis = value as Genesis;
      d.add(space, key, value);
    }
  if (!genesis) throw new Error('the checkpoint holds no genesis');
  return { header, genesis, digests: d.digests() };
}

/** The digests of the replayed node's read models (saved positions first, then rows, as in the file). */
async function nodeDigests(node: OmbraNode, models: readonly string[]): Promise<Record<string, string>> {
  await node.runner.flush();
  const d = new ModelDigests();
  for await (const [key, value] of node.store.sublevel('checkpoints').iterator())
    if (models.includes(key)) d.add('checkpoints', key, value);
  for (const name of models) for await (const [key, value] of node.store.sublevel(`p:${name}`).iterator()) d.add(`p:${name}`, key, value);
  return d.digests();
}

async function main(dbDir: string, file: string): Promise<void> {
  const send = (m: ReplayAnswer) => process.send?.(m);
  const expected = await fileDigests(file);
  const node = await OmbraNode.open({ dbDir, genesis: expected.genesis });
  send({ type: 'ready', height: node.head().index });
  // One message at a time: the parent waits for each answer before it sends the next.
  let queue = Promise.resolve();
  process.on('message', (m: ReplayMessage) => {
    queue = queue.then(async () => {
      try {
        if (m.type === 'blocks') {
          await node.importBlocks(m.json.map((t) => JSON.parse(t)));
          send({ type: 'imported', height: node.head().index });
          return;
        }
        const { header } = expected;
        const mismatches: string[] = [];
        const head = node.head();
        if (head.index !== header.height || head.hash !== header.hash)
          mismatches.push(
            `block ${header.height}: the checkpoint says ${header.hash}, history has ${head.index === header.height ? head.hash : `no such block (head ${head.index})`}`,
          );
        const digests = await nodeDigests(node, header.models);
        for (const name of header.models)
          if (digests[name] !== expected.digests[name])
            mismatches.push(
              `read model ${name}: the checkpoint's digest ${expected.digests[name] ?? 'none'}, history's ${digests[name] ?? 'none'}`,
            );
        send({ type: 'result', mismatches, digests });
        await node.stop();
        process.disconnect?.();
      } catch (e) {
        send({ type: 'error', message: errorMessage(e) });
      }
    });
  });
  process.on('disconnect', () => {
    void node.stop().finally(() => process.exit(0));
  });
}

const [dbDir, file] = process.argv.slice(2);
if (dbDir && file && process.send) {
  main(dbDir, file).catch((e: unknown) => {
    process.send?.({ type: 'error', message: errorMessage(e) } satisfies ReplayAnswer, () => process.exit(1));
  });
}
