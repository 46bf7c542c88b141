/**
 * deploy/: the systemd unit passes `systemd-analyze verify` strictly (where systemd-analyze
 * exists) and a broken copy fails; the Dockerfile's structure is linted (no Docker engine runs here).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { REPO_ROOT } from '../helpers/cliRun.ts';
import { tempDir } from '../helpers/testChain.ts';

const t = suite('deploy/');
const UNIT = join(REPO_ROOT, 'deploy/ombra.service');

/** Runs deploy/verify-unit.sh on `unit`. */
const verify = (unit: string) => spawnSync(join(REPO_ROOT, 'deploy/verify-unit.sh'), [unit], { encoding: 'utf8' });

/** The unit's `Key=value` settings (last one wins). */
function settings(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) out.set(m[1], m[2]);
  }
  return out;
}

t('the unit runs as its own user with state in /var/lib/ombra, hardened, restarted on failure, stopped by SIGTERM', () => {
  const s = settings(readFileSync(UNIT, 'utf8'));
  assert.is(s.get('User'), 'ombra');
  assert.is(s.get('StateDirectory'), 'ombra');
  assert.match(readFileSync(UNIT, 'utf8'), /^Environment=OMBRA_DATA_DIR=\/var\/lib\/ombra$/m);
  for (const [k, v] of Object.entries({
    NoNewPrivileges: 'yes',
    ProtectSystem: 'strict',
    PrivateTmp: 'yes',
    Restart: 'on-failure',
    KillSignal: 'SIGTERM',
  }))
    assert.is(s.get(k), v, k);
  assert.ok(Number(s.get('TimeoutStopSec')) > 5, 'longer than the node gives itself');
  assert.match(s.get('ExecStart') ?? '', /node_modules\/\.bin\/node \S+\/cli\/bin\.js start$/);
});

t('systemd-analyze verify passes the unit and fails a broken copy', () => {
  const ok = verify(UNIT);
  assert.is(ok.status, 0, ok.stdout + ok.stderr);
  if (/skipped/.test(ok.stdout)) {
    console.log(`  (${ok.stdout.trim()})`);
    return;
  }
  const tmp = tempDir();
  try {
    const text = readFileSync(UNIT, 'utf8');
    for (const [name, broken] of [
      ['typo.service', text.replace('NoNewPrivileges=yes', 'NoNewPrivilegs=yes')],
      ['restart.service', text.replace('Restart=on-failure', 'Restart=sometimes')],
      ['exec.service', text.replace('ExecStart=/opt/ombra/node_modules', 'ExecStart=/opt/ombra/no_such')],
    ]) {
      const file = join(tmp.dir, name);
      writeFileSync(file, broken);
      const r = verify(file);
      assert.is(r.status, 1, `${name}: ${r.stdout}`);
      assert.match(r.stdout, /is not clean/, name);
    }
  } finally {
    tmp.cleanup();
  }
});

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const [op, ...rest] = l.split(/\s+/);
      return { op: op.toUpperCase(), args: rest.join(' ') };
    });
}

t('the Dockerfile is multi-stage, runs as a non-root user, keeps data in a /data volume and checks /api/health', () => {
  const ins = instructions(readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8'));
  const from = ins.filter((i) => i.op === 'FROM');
  assert.ok(from.length >= 2, 'at least two stages');
  assert.ok(
    ins.some((i) => i.op === 'COPY' && /--from=/.test(i.args)),
    'the runtime copies from an earlier stage',
  );
  for (const f of from) assert.match(f.args, /^node:24[\w.-]*/, 'Node 24 images');
  // Only the last stage runs: its USER is the one that counts.
  const lastStage = ins.slice(ins.lastIndexOf(from.at(-1)!));
  const user = lastStage.filter((i) => i.op === 'USER').at(-1)?.args;
  assert.ok(user && !/^(root|0)(:|$)/.test(user), `USER ${user}`);
  assert.ok(lastStage.findIndex((i) => i.op === 'USER') < lastStage.findIndex((i) => i.op === 'ENTRYPOINT'), 'USER before the entrypoint');
  assert.ok(
    lastStage.some((i) => i.op === 'VOLUME' && i.args.includes('/data')),
    'VOLUME /data',
  );
  assert.ok(
    lastStage.some((i) => i.op === 'ENV' && i.args.includes('OMBRA_DATA_DIR=/data')),
    'the data dir is the volume',
  );
  const health = lastStage.find((i) => i.op === 'HEALTHCHECK');
  assert.ok(health?.args.includes('/api/health'), 'HEALTHCHECK on /api/health');
  const exposed = lastStage.filter((i) => i.op === 'EXPOSE').flatMap((i) => i.args.split(/\s+/));
  for (const port of ['7777', '7778']) assert.ok(exposed.includes(port), `EXPOSE ${port}`);
  assert.match(lastStage.find((i) => i.op === 'ENTRYPOINT')?.args ?? '', /cli\/bin\.js/);
});

t.run();
