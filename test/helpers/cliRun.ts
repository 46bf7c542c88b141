/** Runs the `ombra` CLI in a real subprocess (the Node running the tests, i.e. Node 24). */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a CLI run produced. */
export interface CliResult {
  /** Exit code; null when killed by a signal (e.g. on timeout). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Options of `runCli`. */
export interface CliRunOptions {
  /** Extra environment variables (merged over the test's environment; undefined removes one). */
  env?: Record<string, string | undefined>;
  /** Kill the process after this long (default 30 s). */
  timeoutMs?: number;
  /** Node's own arguments, before the script (e.g. `--import` of a test hook). */
  nodeArgs?: string[];
  /** The script to run instead of the CLI (a test's child process). */
  script?: string;
  /** Called with the child once spawned: a test that watches it (e.g. over HTTP) and ends it on a condition. */
  onSpawn?: (child: ChildProcess) => void;
}

/** Spawns `node cli/bin.js ...args` (the `ombra` entry, or another script) in the repo and collects its exit code and output. */
export function runCli(args: string[], opts: CliRunOptions = {}): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Keep the subprocess independent of an operator's shell settings.
  for (const k of Object.keys(env)) if (k.startsWith('OMBRA_')) delete env[k];
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.script ?? 'cli/bin.js', ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    opts.onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs ?? 30_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}
