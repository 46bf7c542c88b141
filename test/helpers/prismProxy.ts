/**
 * Prism's validation proxy (`prism proxy --errors`, @stoplight/prism-cli) as a child process in
 * front of a node: every request is checked against the OpenAPI document before it is forwarded,
 * every answer after; with `--errors` a violation becomes Prism's own `application/problem+json`
 * error, and every violation (warnings too) is logged and named in an `sl-violations` header.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { waitFor } from './nodeProcess.ts';

/** Prism's CLI script, or null where the package is not installed. */
function prismBin(): string | null {
  let pkg: string;
  try {
    pkg = fileURLToPath(import.meta.resolve('@stoplight/prism-cli/package.json'));
  } catch {
    return null;
  }
  const bin = pkg.replace(/package\.json$/, 'dist/index.js');
  return existsSync(bin) ? bin : null;
}

/** A running proxy. */
export interface PrismProxy {
  url: string;
  /** Everything Prism logged so far, colours stripped. */
  log(): string;
  /**
   * Everything Prism logged about the requests answered so far: it logs a request's violations
   * before it answers, in order, so once a last request of its own is logged as answered, so is
   * every one before it.
   */
  settledLog(): Promise<string>;
  stop(): Promise<void>;
}

/** The lines of a Prism log that report a violation or a request Prism refused or failed. */
export function prismViolations(log: string): string[] {
  return log
    .split('\n')
    .filter((l) => /Violation:|Request terminated with error|✖|⚠|\b(error|warning)\s{2,}/.test(l))
    .map((l) => l.trim());
}

/** What is wrong with one answer that went through the proxy: its `sl-violations`, or Prism's own error; null when clean. */
export async function prismFault(res: Response): Promise<string | null> {
  const named = res.headers.get('sl-violations');
  if (named) return `sl-violations: ${named}`;
  if (res.headers.get('content-type')?.startsWith('application/problem+json')) return `Prism answered ${res.status}: ${await res.text()}`;
  return null;
}

/** Starts `prism proxy --errors document upstream` on a free loopback port; null when Prism is not installed. */
export async function startPrismProxy(document: string, upstream: string, timeoutMs = 30_000): Promise<PrismProxy | null> {
  const bin = prismBin();
  if (!bin) return null;
  const child: ChildProcess = spawn(process.execPath, [bin, 'proxy', '--errors', '--port', '0', document, upstream], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const append = (d: Buffer) => {
    log += d.toString().replace(/\x1b\[[0-9;]*m/g, '');
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`prism did not start in ${timeoutMs} ms:\n${log}`));
    }, timeoutMs);
    const look = () => {
      const m = /Prism is listening on (http:\/\/\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`prism exited before listening:\n${log}`));
    });
  });
  return {
    url,
    log: () => log,
    async settledLog() {
      // A transaction nobody sent: a 404 the document declares, and a path no other request has.
      const marker = randomBytes(32).toString('hex');
      await (await fetch(`${url}/api/chain/tx/${marker}`)).arrayBuffer();
      await waitFor(async () => (new RegExp(`upstream call to /api/chain/tx/${marker} has returned`).test(log) ? true : undefined));
      return log;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
