/**
 * Invariant 7: no node exits unless the runner signalled it, and no log line at error level
 * (or a line that is not JSON at all, such as a stack trace) unless its message is a named,
 * documented cause: its text appears in the project's docs/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type InvariantResult, result, type RunFacts } from './runFacts.ts';

/**
 * The text of every docs/*.md, where a documented error message is found; docs/e2e.md is left
 * out (it lists the faults runs found, which names their messages without documenting a cause).
 */
function docsText(): string {
  const dir = join(import.meta.dirname, '..', '..', 'docs');
  if (!existsSync(dir)) return '';
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'e2e.md')
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

/** Checks exits and error lines. */
export function checkExits(f: RunFacts): InvariantResult {
  const violations: string[] = [];
  const exits = f.records.filter((r) => r.type === 'exit');
  // Unexpected exits grouped by node and outcome, with what the node said last before the first.
  const unexpected = new Map<string, typeof exits>();
  for (const e of exits.filter((r) => !r.expected)) {
    const key = `${e.node} code ${e.code}, signal ${e.signal}`;
    unexpected.set(key, [...(unexpected.get(key) ?? []), e]);
  }
  for (const [key, list] of unexpected) {
    const first = list[0];
    const said = f.records.findLast((r) => r.type === 'log' && r.node === first.node && r.t <= first.t);
    violations.push(
      `${key.replace(' code', ' exited on its own: code')}${list.length > 1 ? ` (${list.length} times)` : ''}; last line before: ${String(said?.line ?? 'none').slice(0, 300)}`,
    );
  }
  // A graceful stop must end with code 0 (death by the signal itself is a start-up not yet
  // listening for it, not a failed stop).
  for (const e of exits.filter((r) => r.expected && r.sent === 'SIGTERM' && r.code !== 0 && r.code !== null))
    violations.push(`${e.node} answered SIGTERM with code ${e.code}, signal ${e.signal}`);
  const docs = docsText();
  const errors = f.records.filter((r) => r.type === 'log' && r.level !== 'warn');
  const byMsg = new Map<string, { count: number; node: string; line: string }>();
  for (const e of errors) {
    const key = `${e.level} ${e.msg}`;
    const seen = byMsg.get(key);
    if (seen) seen.count++;
    else byMsg.set(key, { count: 1, node: String(e.node), line: String(e.line) });
  }
  let documented = 0;
  for (const [key, v] of byMsg) {
    const msg = key.slice(key.indexOf(' ') + 1);
    if (!key.startsWith('raw') && msg.length >= 8 && docs.includes(msg)) {
      documented += v.count;
      continue;
    }
    violations.push(`${v.count} x "${key}" (first on ${v.node}): ${v.line.slice(0, 300)}`);
  }
  const warns = f.records.filter((r) => r.type === 'log' && r.level === 'warn').length;
  const figures = `${exits.length} exits (${exits.filter((r) => !r.expected).length} unexpected), ${errors.length} error lines (${documented} with a documented message), ${warns} warnings`;
  return result('7 no unexpected exit or undocumented error', figures, violations);
}
