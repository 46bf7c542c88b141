/**
 * One `ombra start` process of the network: started with Node 24 (the runner's own
 * process.execPath) on its data dir, its output kept in OUT/logs/<name>.log, its warn and error
 * lines and its exits recorded in the history, and the signals of the perturbations.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { History } from './history.ts';

/** Where the CLI lives (the repository's cli/bin.js). */
const BIN = join(import.meta.dirname, '..', 'cli', 'bin.js');

/** A node process the runner owns. */
export class NodeProcess {
  readonly name: string;
  readonly args: string[];
  readonly httpUrl: string;
  private child: ChildProcess | null = null;
  private readonly log: WriteStream;
  private readonly history: History;
  /** The signal the runner sent last (an exit after it is expected). */
  private expecting: string | null = null;
  private exited: Promise<void> = Promise.resolve();
  /** Starts so far (a restart counts one). */
  starts = 0;
  paused = false;

  constructor(name: string, args: string[], httpPort: number, logDir: string, history: History) {
    this.name = name;
    this.args = args;
    this.httpUrl = `http://127.0.0.1:${httpPort}`;
    this.history = history;
    this.log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  }

  /** The live process id, or null while it is down. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Spawns the node (its previous run must have exited). */
  start(): void {
    this.starts++;
    this.expecting = null;
    this.paused = false;
    const child = spawn(process.execPath, [BIN, 'start', ...this.args], {
      env: { ...process.env, OMBRA_LOG_FORMAT: 'json', NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.history.record('start', { node: this.name, pid: child.pid, run: this.starts });
    child.stdout?.pipe(this.log, { end: false });
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => this.onLine(line));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.history.record('exit', {
          node: this.name,
          pid: child.pid,
          code,
          signal,
          expected: this.expecting !== null,
          sent: this.expecting,
        });
        if (this.child === child) this.child = null;
        resolve();
      }),
    );
  }

  private onLine(line: string): void {
    this.log.write(`${line}\n`);
    let v: { level?: string; msg?: string } | null = null;
    try {
      v = JSON.parse(line) as { level?: string; msg?: string };
    } catch {
      // A line that is not JSON (a crash's stack trace) is an error line in its own right.
    }
    const level = v?.level ?? 'raw';
    if (level === 'error' || level === 'fatal' || level === 'warn' || level === 'raw')
      this.history.record('log', { node: this.name, level, msg: v?.msg ?? line.slice(0, 500), line: line.slice(0, 2000) });
  }

  /** Sends `signal` (an exit it causes is expected). */
  signal(signal: NodeJS.Signals): void {
    if (!this.child) return;
    if (signal !== 'SIGSTOP' && signal !== 'SIGCONT') this.expecting = signal;
    if (signal === 'SIGSTOP') this.paused = true;
    if (signal === 'SIGCONT') this.paused = false;
    this.child.kill(signal);
  }

  /** Resolves when the current process has exited. */
  waitExit(): Promise<void> {
    return this.exited;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it is gone. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.child) return;
    if (this.paused) this.signal('SIGCONT');
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  /** Resolves once GET /api/health answers at all (200 or 503), or rejects after `timeoutMs`. */
  async waitServing(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (!this.child) throw new Error(`${this.name} exited before serving`);
      try {
        await fetch(`${this.httpUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    throw new Error(`${this.name} did not serve within ${timeoutMs} ms`);
  }

  /** Closes the log file. */
  close(): void {
    this.log.end();
  }
}
