/** Runs `ombra start` as a real child process and finds its URL from the log on stderr. */
import { patient } from './patience.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../cli/bin.js', import.meta.url));

/** A node process. */
export interface NodeProcess {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
}

/**
 * Starts `ombra start ...args` with `--http-port 0` and waits until it serves. `timeoutMs` only
 * guards against a start that hangs: at load average 45 on two cores a dev node took over 20 s
 * to serve (it had logged `p2p listening`), so the guard is two minutes, not a speed check.
 */
export async function startNodeProcess(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000): Promise<NodeProcess> {
  const child = spawn(
    process.execPath,
    [
      MAIN,
      'start',
      '--http-port',
      '0',
      ...(args.includes('--p2p-port') ? [] : ['--p2p-port', '0']),
      // Off --dev a node listens for /metrics on 127.0.0.1:9464 by default: tests run many at once.
      ...(args.includes('--metrics-addr') ? [] : ['--metrics-addr', '127.0.0.1:0']),
      ...args,
    ],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let log = '';
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node did not start in ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      // Pretty (`node serving url=...`) or JSON (`"msg":"node serving","url":"..."`) lines.
      const m = /node serving url=(\S+)/.exec(log) ?? /"msg":"node serving","url":"([^"]+)"/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`node exited (${code}) before serving:\n${log}`));
    });
  });
  return { child, url, stderr: () => log, exited };
}

/** Polls `fn` until it returns a value (not undefined) or the time runs out. */
export async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs = 15_000, stepMs = 50): Promise<T> {
  const end = Date.now() + patient(timeoutMs);
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`condition not met in ${patient(timeoutMs)} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
