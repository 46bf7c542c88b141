/**
 * A node:test reporter beside the spec one: the slowest files, and one closing line with the
 * passed, failed and skipped counts. Under `CI=true` a skipped test fails the run (CI installs
 * every tool a test drives, so a skip there is a check that did not happen); a test announced
 * but never reported passed or failed fails the run anywhere.
 */
import type { TestEvent } from 'node:test/reporters';

/** Folds the run's events into the closing lines. */
export default async function* tierReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  let passed = 0;
  let failed = 0;
  const skipped: string[] = [];
  const files = new Map<string, number>();
  // Tests announced but never reported passed or failed: a file's process that ended before it
  // wrote out its last events (`--test-force-exit` did: the last ten tests of one file went
  // missing from a CI run's counts without a word).
  const open = new Map<string, string>();
  const key = (d: { file?: string; name: string; nesting: number }) => `${d.file ?? ''}\0${d.nesting}\0${d.name}`;
  for await (const e of source) {
    // The file's own entry (named after its path) is never reported passed: only its tests count.
    if (e.type === 'test:enqueue' && !e.data.file?.endsWith(e.data.name)) open.set(key(e.data), `${e.data.file ?? '?'}: ${e.data.name}`);
    if (e.type !== 'test:pass' && e.type !== 'test:fail') continue;
    const d = e.data;
    open.delete(key(d));
    // A file's top-level tests run one after another: their durations add up to the file's time.
    if (d.nesting === 0 && d.file) files.set(d.file, (files.get(d.file) ?? 0) + d.details.duration_ms);
    if (d.details.type === 'suite') continue;
    if (d.skip !== undefined || d.todo !== undefined) skipped.push(`${d.name}: ${d.skip || d.todo || 'skipped'}`);
    else if (e.type === 'test:pass') passed++;
    else failed++;
  }
  const root = `${process.cwd()}/`;
  const slow = [...files].sort((a, b) => b[1] - a[1]).slice(0, 12);
  yield `\nslowest files (s): ${slow.map(([f, ms]) => `${f.replace(root, '')} ${(ms / 1000).toFixed(1)}`).join(', ')}\n`;
  for (const s of skipped) yield `skipped: ${s}\n`;
  for (const o of open.values()) yield `never reported: ${o.replace(root, '')}\n`;
  // A test that vanished is a check that did not happen, anywhere.
  if (open.size > 0) process.exitCode = 1;
  if (process.env.CI && skipped.length > 0) {
    yield `under CI=true a skipped test fails the run (${skipped.length} skipped)\n`;
    process.exitCode = 1;
  }
  yield `${passed} passed, ${failed} failed, ${skipped.length} skipped${open.size ? `, ${open.size} never reported` : ''}\n`;
}
