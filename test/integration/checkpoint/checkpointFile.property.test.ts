/**
 * The checkpoint file format read back: rows come out as the bytes they went in as (any key, any
 * stored JSON value), and a file that is not a checkpoint of this format is refused with a
 * CheckpointFault: another version, a foreign keyspace, a cut-short file, a malformed row.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { after, test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import assert from 'node:assert/strict';
import { CHECKPOINT_FORMAT, CheckpointFault, readCheckpoint, rowLine, rowValue } from '../../../checkpoint/checkpointFile.ts';
import { tempDir } from '../../helpers/testChain.ts';
import { errorMessage } from '../../../core/errors.ts';

const tmp = tempDir('ombra-checkpoint-file-');
let n = 0;

const header = (over: Record<string, unknown> = {}) =>
  `${JSON.stringify({ ombraCheckpoint: CHECKPOINT_FORMAT, chainId: 'c', genesisHash: 'g', height: 1, hash: 'h', base: 1, models: ['accounts'], ...over })}\n`;

/** Writes `text` gzip-compressed to a new file and answers its path. */
function file(text: string): string {
  const path = join(tmp.dir, `f${n++}.ckpt`);
  writeFileSync(path, gzipSync(text));
  return path;
}

async function readAll(path: string): Promise<[string, string, string][]> {
  const { rows } = await readCheckpoint(path);
  const out: [string, string, string][] = [];
  for await (const chunk of rows) for (const [space, key, value] of chunk) out.push([space, key, value.toString('utf8')]);
  return out;
}

async function refusal(path: string): Promise<string> {
  try {
    await readAll(path);
  } catch (e) {
    assert.ok(e instanceof CheckpointFault);
    return errorMessage(e);
  }
  throw new Error('the file was read');
}

test('any key and any stored JSON value read back exactly as written', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.constantFrom('meta', 'blocks', 'undo', 'checkpoints', 'p:accounts'), fc.string(), fc.jsonValue()), {
        maxLength: 20,
      }),
      async (rows) => {
        const kept = rows.filter(([space, key]) => space !== 'meta' || key === 'head' || key === 'genesis');
        const texts = kept.map(([space, key, v]) => [space, key, JSON.stringify(v)] as [string, string, string]);
        const body = texts.map(([s, k, v]) => rowLine(s, k, v)).join('');
        const read = await readAll(file(`${header()}${body}{"end":${texts.length}}\n`));
        assert.deepEqual(read, texts);
        for (const [, , v] of read) assert.deepEqual(rowValue(Buffer.from(v)), JSON.parse(v));
      },
    ),
    { numRuns: 50 },
  );
});

test('another format version is refused before any row', async () => {
  const err = await readCheckpoint(file(`${header({ ombraCheckpoint: 1 })}{"end":0}\n`)).catch((e: Error) => e);
  assert.ok(err instanceof CheckpointFault);
  assert.match(errorMessage(err), literal(new RegExp(`checkpoint format 1; this node reads format ${CHECKPOINT_FORMAT}`)));
});

test('a keyspace a checkpoint never holds, a node-local meta row, a cut-short file and a malformed row are refused', async () => {
  assert.match(
    await refusal(file(`${header()}${rowLine('apikeys', 'k', '{}')}{"end":1}\n`)),
    /keyspace apikeys, which a checkpoint never holds/,
  );
  assert.match(await refusal(file(`${header()}${rowLine('p:social', 'k', '{}')}{"end":1}\n`)), /keyspace p:social/);
  assert.match(await refusal(file(`${header()}${rowLine('meta', 'peers', '{}')}{"end":1}\n`)), /meta peers/);
  assert.match(await refusal(file(`${header()}${rowLine('blocks', 'k', '{}')}`)), /without its end line/);
  assert.match(await refusal(file(`${header()}${rowLine('blocks', 'k', '{}')}{"end":2}\n`)), /end line says 2 rows, the file holds 1/);
  assert.match(await refusal(file(`${header()}blocks\tk\t{}\n{"end":1}\n`)), /cannot be read/);
  assert.match(await refusal(file(`${header()}blocks\t"k"\n{"end":1}\n`)), /row 1 is malformed/);
});

after(() => tmp.cleanup());
