/**
 * Runs every `test/**\/*.test.ts` file with uvu and ends with the plain `N passed, N failed`
 * line. `npm test -- api core/keys` runs only files whose path matches.
 *
 * Files run in worker processes (`OMBRA_TEST_JOBS`, default: one per core plus one, at most 4)
 * that take the next file from a shared queue, so a long file never holds up a whole shard; each
 * file's output is printed in one piece when it ends. Many files spend most of their time waiting
 * on real timers, sockets and slots (a browser suite, a peer being banned), so one worker more
 * than the cores keeps both cores busy meanwhile: on two cores, three workers ran the suite in
 * 305 s, two in 382 s (the three on a busier machine). With one job (or one file) everything runs
 * in this process.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)));
const args = process.argv.slice(2);
const WORKER = args.includes('--worker');
const filters = args.filter((a) => !a.startsWith('--'));

/** What a worker reports of one file. */
interface FileResult {
  file: string;
  output: string;
  total: number;
  passed: number;
  ms: number;
  /** CPU seconds the file cost: its worker's and the child processes it waited for (nodes, Chromium). */
  cpu: number;
}

function find(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

// Files known to run long go first, so the queue's tail is made of short files.
const LONG = /crash|p2p\/|browser|hostile|flood|simulate|prism|alerts|storeDamage|serverLimits|writeFuzz/;

function files(): string[] {
  const all = find(root).filter((f) => filters.length === 0 || filters.some((x) => relative(root, f).includes(x)));
  return [...all.filter((f) => LONG.test(relative(root, f))), ...all.filter((f) => !LONG.test(relative(root, f)))];
}

/**
 * CPU seconds of this process and of its reaped children (Linux /proc: utime, stime, cutime,
 * cstime at 100 ticks a second); NaN elsewhere. The suite is CPU-bound, so this is the cost to cut.
 */
function cpuSeconds(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return fields.slice(11, 15).reduce((n, f) => n + Number(f), 0) / 100;
  } catch {
    return Number.NaN;
  }
}

const g = globalThis as unknown as { UVU_DEFER: number; UVU_INDEX: number; UVU_QUEUE: unknown[][] };
g.UVU_DEFER = 1;
g.UVU_QUEUE = [];

/** Runs one test file with uvu in this process, capturing what it prints. */
async function runFile(file: string): Promise<FileResult> {
  const uvu = await import('uvu');
  const name = relative(root, file);
  let output = '';
  let total = 0;
  let passed = 0;
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    const s = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    const plain = s.replace(/\x1b\[[0-9;]*m/g, '');
    const t = /Total:\s+(\d+)/.exec(plain);
    if (t) total = Number(t[1]);
    const p = /Passed:\s+(\d+)/.exec(plain);
    if (p) passed = Number(p[1]);
    // The per-file summary block is uvu's; the runner prints one for the whole run.
    if (!/Total:|Passed:|Skipped:|Duration:/.test(plain)) output += s;
    return true;
  }) as typeof process.stdout.write;
  const start = performance.now();
  const cpu = cpuSeconds();
  try {
    g.UVU_QUEUE.length = 0;
    g.UVU_INDEX = 0;
    g.UVU_QUEUE.push([name]);
    await import(pathToFileURL(file).href);
    await uvu.exec(false);
  } catch (e) {
    output += `\n   FAIL  ${name} could not be loaded\n    ${(e as Error).stack ?? e}\n`;
    total = Math.max(total, passed + 1);
  } finally {
    process.stdout.write = write;
  }
  return { file: name, output, total, passed, ms: performance.now() - start, cpu: cpuSeconds() - cpu };
}

if (WORKER) {
  // A worker: take files until told to stop.
  process.on('message', async (m: { file?: string }) => {
    if (!m.file) process.exit(0);
    process.send!(await runFile(m.file));
  });
  process.send!({ ready: true });
} else {
  const queue = files();
  const jobs = Math.min(Number(process.env.OMBRA_TEST_JOBS ?? Math.min(availableParallelism() + 1, 4)), queue.length);
  const results: FileResult[] = [];
  const report = (r: FileResult) => {
    results.push(r);
    process.stdout.write(`${r.output.trimEnd()}\n\n`);
  };
  const started = performance.now();
  if (jobs <= 1) {
    for (const f of queue) report(await runFile(f));
  } else {
    await new Promise<void>((done) => {
      let live = 0;
      const start = () => {
        const w: ChildProcess = fork(fileURLToPath(import.meta.url), ['--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        let running: string | undefined;
        live++;
        const next = () => {
          running = queue.shift();
          w.send(running ? { file: running } : {});
        };
        w.on('message', (m: FileResult | { ready: true }) => {
          if ('file' in m) {
            running = undefined;
            report(m);
          }
          next();
        });
        w.on('exit', (code) => {
          live--;
          // A file that killed its worker fails, and the rest of the queue goes on in a new one.
          if (running) {
            report({
              file: running,
              output: `\n   FAIL  ${running}: its worker exited with ${code}\n`,
              total: 1,
              passed: 0,
              ms: 0,
              cpu: 0,
            });
            if (queue.length > 0) start();
          }
          if (live === 0) done();
        });
      };
      for (let i = 0; i < jobs; i++) start();
    });
  }
  const total = results.reduce((n, r) => n + r.total, 0);
  const passed = results.reduce((n, r) => n + r.passed, 0);
  // The slowest files (wall seconds, CPU seconds), three to a line, so a run's time is easy to attribute.
  const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 15);
  const cpu = results.reduce((n, r) => n + r.cpu, 0);
  const took = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`\n  Files: ${results.length} in ${jobs} worker(s), ${took} s, ${cpu.toFixed(0)} CPU s; slowest (wall s/CPU s):`);
  for (let i = 0; i < slowest.length; i += 3) {
    console.log(
      `    ${slowest
        .slice(i, i + 3)
        .map((r) => `${r.file} ${(r.ms / 1000).toFixed(1)}/${r.cpu.toFixed(1)}`)
        .join(', ')}`,
    );
  }
  console.log('');
  console.log(`${passed} passed, ${total - passed} failed`);
  process.exit(total - passed > 0 ? 1 : 0);
}
