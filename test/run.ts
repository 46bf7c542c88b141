/**
 * Runs every `test/**\/*.test.ts` file with uvu in one process and ends with the plain
 * `N passed, N failed` line. `npm test -- api core/keys` runs only files whose path matches.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)));
const filters = process.argv.slice(2);

function find(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const files = find(root).filter((f) => filters.length === 0 || filters.some((x) => relative(root, f).includes(x)));
const g = globalThis as unknown as { UVU_DEFER: number; UVU_INDEX: number; UVU_QUEUE: unknown[][] };
g.UVU_DEFER = 1;
g.UVU_QUEUE = [];
const uvu = await import('uvu');

let total = 0;
let passed = 0;
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  const s = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
  const plain = s.replace(/\x1b\[[0-9;]*m/g, '');
  const t = /Total:\s+(\d+)/.exec(plain);
  if (t) total = Number(t[1]);
  const p = /Passed:\s+(\d+)/.exec(plain);
  if (p) passed = Number(p[1]);
  return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
}) as typeof process.stdout.write;

for (let i = 0; i < files.length; i++) {
  g.UVU_INDEX = i;
  g.UVU_QUEUE.push([relative(root, files[i])]);
  await import(pathToFileURL(files[i]).href);
}
await uvu.exec(false);
process.stdout.write = write;
console.log(`${passed} passed, ${total - passed} failed`);
process.exit(total - passed > 0 || process.exitCode ? 1 : 0);
