/**
 * deploy/: the systemd unit passes `systemd-analyze verify` strictly (where systemd-analyze
 * exists) and a broken copy fails; the Dockerfile's structure is linted (no Docker engine runs here).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { missing } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { REPO_ROOT } from '../../helpers/cliRun.ts';
import { tempDir } from '../../helpers/testChain.ts';

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

test('the unit runs as its own user with state in /var/lib/ombra, hardened, restarted on failure, stopped by SIGTERM', () => {
  const s = settings(readFileSync(UNIT, 'utf8'));
  assert.equal(s.get('User'), 'ombra');
  assert.equal(s.get('StateDirectory'), 'ombra');
  assert.match(readFileSync(UNIT, 'utf8'), /^Environment=OMBRA_DATA_DIR=\/var\/lib\/ombra$/m);
  for (const [k, v] of Object.entries({
    NoNewPrivileges: 'yes',
    ProtectSystem: 'strict',
    PrivateTmp: 'yes',
    Restart: 'on-failure',
    KillSignal: 'SIGTERM',
  }))
    assert.equal(s.get(k), v, k);
  assert.ok(Number(s.get('TimeoutStopSec')) > 5, 'longer than the node gives itself');
  assert.match(s.get('ExecStart') ?? '', /node_modules\/\.bin\/node \S+\/cli\/bin\.js start$/);
});

test('systemd-analyze verify passes the unit and fails a broken copy', { skip: missing('systemd-analyze') }, () => {
  const ok = verify(UNIT);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
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
      assert.equal(r.status, 1, `${name}: ${r.stdout}`);
      assert.match(r.stdout, /is not clean/, name);
    }
  } finally {
    tmp.cleanup();
  }
});

test("the sink's unit: the node unit's hardening, systemd-analyze clean, runs `sink postgres` from its env file", {
  skip: missing('systemd-analyze'),
}, () => {
  const SINK = join(REPO_ROOT, 'deploy/ombra-sink.service');
  const node = settings(readFileSync(UNIT, 'utf8'));
  const sink = settings(readFileSync(SINK, 'utf8'));
  const hardening = [...node.keys()].filter((k) =>
    /^(Protect|Restrict|Private|NoNew|Capability|Ambient|SystemCall|Lock|RemoveIPC|UMask)/.test(k),
  );
  assert.ok(hardening.length >= 15);
  for (const k of hardening) if (k !== 'RestrictAddressFamilies') assert.equal(sink.get(k), node.get(k), k);
  assert.equal(sink.get('User'), 'ombra');
  assert.equal(sink.get('Restart'), 'on-failure');
  assert.equal(sink.get('KillSignal'), 'SIGTERM');
  assert.equal(sink.get('EnvironmentFile'), '/etc/ombra/sink.env');
  assert.match(sink.get('ExecStart') ?? '', /node_modules\/\.bin\/node \S+\/cli\/bin\.js sink postgres$/);
  const r = verify(SINK);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /ombra-sink\.service: ok/);
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

test('the Dockerfile is multi-stage, runs as a non-root user, keeps data in a /data volume and checks /api/health', () => {
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

/** Top-level directories the node's own code reads at run time: relative imports and `new URL('../x/')` reads. */
function runtimeDirs(): Set<string> {
  const roots = ['api', 'cli', 'client', 'core', 'node', 'p2p', 'projections', 'queries', 'services'];
  const out = new Set(roots);
  const walk = (dir: string, depth: number): void => {
    for (const e of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
      const rel = join(dir, e.name);
      if (e.isDirectory()) walk(rel, depth + 1);
      else if (/\.(ts|js)$/.test(e.name))
        // As many `../` as the file is deep: a path from the repository root.
        for (const m of readFileSync(join(REPO_ROOT, rel), 'utf8').matchAll(/(?:from |URL\()'((?:\.\.\/)+)([a-z]+)\//g))
          if (m[1].length / 3 === depth + 1) out.add(m[2]);
    }
  };
  for (const r of roots) walk(r, 0);
  return out;
}

test('issue 34 row 13: the image copies only what the node runs, by name, keeps metrics on loopback, and the context is an allowlist', () => {
  const ins = instructions(readFileSync(join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8'));
  const lastStage = ins.slice(ins.lastIndexOf(ins.filter((i) => i.op === 'FROM').at(-1)!));
  const copies = lastStage.filter((i) => i.op === 'COPY' && !i.args.startsWith('--from='));
  assert.ok(copies.length > 0);
  const sources = copies.map((c) => c.args.split(/\s+/)[0]);
  for (const s of sources) assert.ok(!['.', './', '*'].includes(s), `COPY ${s} copies the whole checkout`);
  const dirs = runtimeDirs();
  assert.ok(dirs.has('fixtures'), [...dirs].join(' '));
  for (const d of dirs) assert.ok(sources.includes(d), `the node reads ${d}/ at run time: COPY it`);
  for (const d of ['test', 'deploy', 'data', '.git']) assert.ok(!sources.includes(d), `COPY ${d}`);
  const env = lastStage
    .filter((i) => i.op === 'ENV')
    .map((i) => i.args)
    .join(' ');
  assert.match(env, /OMBRA_METRICS_ADDR=127\.0\.0\.1:9464/);
  const exposed = lastStage.filter((i) => i.op === 'EXPOSE').flatMap((i) => i.args.split(/\s+/));
  assert.ok(!exposed.includes('9464'), 'metrics are not exposed');
  const ignore = readFileSync(join(REPO_ROOT, 'deploy/Dockerfile.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  assert.equal(ignore[0], '*', 'the context starts from nothing');
  for (const s of [...sources, 'package-lock.json']) assert.ok(ignore.includes(`!${s.replace(/\/$/, '')}`), `!${s} in the allowlist`);
});

test('issue 34 row 13: the unit hides other processes, maps users away, denies link-local and multicast, and caps memory', () => {
  const s = settings(readFileSync(UNIT, 'utf8'));
  assert.equal(s.get('ProtectProc'), 'invisible');
  assert.equal(s.get('PrivateUsers'), 'yes');
  assert.match(s.get('IPAddressDeny') ?? '', /link-local/);
  assert.match(s.get('MemoryMax') ?? '', /^[0-9]+[KMG]$/);
  assert.equal(s.get('UMask'), '0077');
});
