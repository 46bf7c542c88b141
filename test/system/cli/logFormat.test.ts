import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cliRun.ts';
import { startNodeProcess, waitFor } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

async function run(args: string[], env: Record<string, string> = {}): Promise<string> {
  const tmp = tempDir();
  const p = await startNodeProcess(['--dev', '--data-dir', tmp.dir, ...args], env);
  try {
    // Signal handlers are installed once the node logs `started`.
    await waitFor(async () => (/\bstarted\b/.test(p.stderr()) ? true : undefined));
    // 'close' comes after stderr is drained ('exit' may come before the last lines).
    const closed = new Promise((r) => p.child.once('close', r));
    p.child.kill('SIGTERM');
    await closed;
    return p.stderr();
  } finally {
    tmp.cleanup();
  }
}

test('--log-format json writes one object a line with time, level and msg, from start to stop', async () => {
  const lines = (await run(['--log-format', 'json'])).trim().split('\n');
  assert.ok(lines.length >= 3, lines.join('\n'));
  for (const l of lines) {
    const o = JSON.parse(l);
    assert.match(o.time, /^\d{4}-\d\d-\d\dT/);
    assert.ok(['debug', 'info', 'warn', 'error'].includes(o.level), l);
    assert.equal(typeof o.msg, 'string');
  }
  const msgs = lines.map((l) => JSON.parse(l).msg);
  assert.ok(msgs.includes('node serving') && msgs.includes('stopped'), msgs.join(', '));
});

test('OMBRA_LOG_FORMAT=pretty writes aligned text lines', async () => {
  const out = await run([], { OMBRA_LOG_FORMAT: 'pretty' });
  assert.match(out, /^\d{4}-\d\d-\d\dT\S+ INFO {2}node serving url=http:\/\/127\.0\.0\.1:\d+ /m);
  assert.doesNotMatch(out, /^\{/m);
});

test('an unknown format is a usage error', async () => {
  const r = await runCli(['start', '--dev', '--log-format', 'xml']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--log-format must be json or pretty/);
});
