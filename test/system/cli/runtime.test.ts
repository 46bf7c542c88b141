/**
 * The entry's runtime checks: an old Node gets one plain line, `npm start` / `npx ombra
 * start` stop the node when npm is sent SIGTERM, and `ombra start` runs with fixed malloc
 * thresholds on glibc (docs/memory.md).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { literal } from '../../helpers/literal.ts';
import { skipOrFail } from '../../helpers/skip.ts';
import assert from 'node:assert/strict';
import { MALLOC_TUNABLES, NODE_MAJOR, runtimeProblem, SEMI_SPACE_FLAG, serveRuntime, shareCompileCache } from '../../../cli/runtime.js';
import { REPO_ROOT, runCli } from '../../helpers/cliRun.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';
import { errorMessage } from '../../../core/errors.ts';

test('a Node older than 24 is one line naming what is needed, what runs and how to get it', () => {
  for (const v of ['20.20.2', '18.0.0', '23.11.1']) {
    const line = runtimeProblem(v);
    assert.ok(line, v);
    assert.doesNotMatch(line, /\n/);
    assert.match(line, literal(new RegExp(`needs Node ${NODE_MAJOR} or newer; this is Node ${v.replace(/\./g, '\\.')}`)));
    assert.match(line, /npx ombra/);
    assert.match(line, /npm start/);
  }
  for (const v of ['24.0.0', '24.21.0', '25.1.0', process.versions.node]) assert.equal(runtimeProblem(v), null, v);
});

test("package.json's engines asks for the Node the check asks for", () => {
  const pkg = JSON.parse(readFileSync(`${REPO_ROOT}package.json`, 'utf8'));
  assert.equal(pkg.engines?.node, `>=${NODE_MAJOR}`);
});

/** Every `node` on PATH older than the one required (e.g. a distribution's Node 20). */
function oldNodes(): string[] {
  const found = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' }).stdout?.split('\n').filter(Boolean) ?? [];
  return found.filter((bin) => {
    const v = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim().replace(/^v/, '') ?? '';
    return v !== '' && runtimeProblem(v) !== null;
  });
}

test('cli/bin.js under an old Node prints the line and exits 1 (no SyntaxError)', () => {
  const bins = oldNodes();
  if (bins.length === 0) {
    console.log('  (no Node older than 24 on PATH: only the check function is tested)');
    return;
  }
  for (const bin of bins) {
    const r = spawnSync(bin, ['cli/bin.js', 'start', '--dev'], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(r.status, 1, bin);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^ombra needs Node 24 or newer; this is Node \d+/);
    assert.doesNotMatch(r.stderr, /SyntaxError/);
  }
});

test('on the required Node the entry runs as before', async () => {
  const r = await runCli(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage: ombra <command>/);
});

/** A loopback TCP port nobody listens on right now. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Processes whose environment holds `marker` (Linux /proc; empty elsewhere). */
function processesWith(marker: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  return pids
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, 'latin1').includes(marker);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const health = (port: number) =>
  fetch(`http://127.0.0.1:${port}/api/health`).then(
    (r) => r.status,
    () => 0,
  );

for (const launcher of [
  ['npm', 'start'],
  ['npx', 'ombra', 'start'],
]) {
  test(`SIGTERM to \`${launcher.join(' ')}\` (the npm process) stops the node: its port closes, no process remains`, async () => {
    const tmp = tempDir('ombra-npm-start-');
    const httpPort = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith('OMBRA_')) delete env[k];
    Object.assign(env, {
      OMBRA_DEV: '1',
      OMBRA_DATA_DIR: tmp.dir,
      OMBRA_HTTP_PORT: String(httpPort),
      OMBRA_P2P_PORT: String(await freePort()),
      OMBRA_LOG_LEVEL: 'warn',
    });
    const npm = spawn(launcher[0], launcher.slice(1), { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    npm.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise((r) => npm.once('exit', r));
    try {
      await waitFor(async () => ((await health(httpPort)) === 200 ? true : undefined), 60_000, 200);
      npm.kill('SIGTERM');
      await exited;
      await waitFor(async () => ((await health(httpPort)) === 0 ? true : undefined), 15_000, 100);
      await waitFor(async () => (processesWith(`OMBRA_DATA_DIR=${tmp.dir}`).length === 0 ? true : undefined), 15_000, 100);
    } catch (e) {
      throw new Error(`${errorMessage(e)}\n${stderr}`);
    } finally {
      npm.kill('SIGKILL');
      for (const pid of processesWith(`OMBRA_DATA_DIR=${tmp.dir}`)) process.kill(pid, 'SIGKILL');
      tmp.cleanup();
    }
  });
}

test("the node's workers and children get the compile cache bin.js opened, unless the operator chose", () => {
  const env: Record<string, string | undefined> = { PATH: '/bin' };
  shareCompileCache({ directory: '/tmp/cache' }, env);
  assert.deepEqual(env, { PATH: '/bin', NODE_COMPILE_CACHE: '/tmp/cache' });
  const chosen: Record<string, string | undefined> = { NODE_COMPILE_CACHE: '/var/cache/ombra' };
  shareCompileCache({ directory: '/tmp/cache' }, chosen);
  assert.deepEqual(chosen, { NODE_COMPILE_CACHE: '/var/cache/ombra' });
  const off: Record<string, string | undefined> = { NODE_DISABLE_COMPILE_CACHE: '1' };
  shareCompileCache({ directory: '/tmp/cache' }, off);
  assert.deepEqual(off, { NODE_DISABLE_COMPILE_CACHE: '1' });
  const failed: Record<string, string | undefined> = {};
  shareCompileCache({}, failed);
  assert.deepEqual(failed, {});
});

test('`ombra start` is re-executed with fixed malloc thresholds (glibc) and a capped young generation, unless set already or turned off', () => {
  const both = serveRuntime({ PATH: '/bin' }, ['--enable-source-maps'], '2.36');
  assert.deepEqual(both, {
    env: { PATH: '/bin', GLIBC_TUNABLES: MALLOC_TUNABLES },
    execArgv: ['--enable-source-maps', SEMI_SPACE_FLAG],
  });
  assert.equal(
    serveRuntime({ GLIBC_TUNABLES: 'glibc.pthread.rseq=0' }, [], '2.36')?.env.GLIBC_TUNABLES,
    `glibc.pthread.rseq=0:${MALLOC_TUNABLES}`,
    'other tunables are kept',
  );
  // What the operator set wins; what a previous exec set is not set twice (no exec loop).
  assert.deepEqual(
    serveRuntime({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }, [], '2.36')?.env.GLIBC_TUNABLES,
    'glibc.malloc.arena_max=2',
  );
  assert.deepEqual(serveRuntime({ NODE_OPTIONS: '--max-semi-space-size=4' }, [], '2.36')?.execArgv, []);
  assert.equal(serveRuntime({ GLIBC_TUNABLES: MALLOC_TUNABLES }, [SEMI_SPACE_FLAG], '2.36'), null);
  assert.equal(serveRuntime({ OMBRA_RUNTIME_TUNING: '0' }, [], '2.36'), null);
  assert.deepEqual(serveRuntime({}, [], undefined), { env: {}, execArgv: [SEMI_SPACE_FLAG] }, 'not glibc: the V8 flag only');
});

test('a started node runs with the tunables and the flag in its own process (same pid: re-executed in place)', async (t) => {
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  if (!glibc) return skipOrFail(t, 'not a glibc system: the malloc tunables do not apply');
  const tmp = tempDir('ombra-malloc-');
  const httpPort = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('OMBRA_') || k === 'GLIBC_TUNABLES' || k === 'NODE_OPTIONS') delete env[k];
  const child = spawn(
    process.execPath,
    ['cli/bin.js', 'start', '--dev', '--data-dir', tmp.dir, '--http-port', String(httpPort), '--p2p-port', String(await freePort())],
    { cwd: REPO_ROOT, env, stdio: 'ignore' },
  );
  const exited = new Promise((r) => child.once('exit', r));
  try {
    await waitFor(async () => ((await health(httpPort)) === 200 ? true : undefined), 60_000, 200);
    const environ = readFileSync(`/proc/${child.pid}/environ`, 'latin1').split('\0');
    assert.ok(
      environ.some((v) => v.startsWith('GLIBC_TUNABLES=') && v.includes('glibc.malloc.mmap_threshold=')),
      `GLIBC_TUNABLES in the node's environment: ${environ.filter((v) => v.startsWith('GLIBC')).join(' ') || 'none'}`,
    );
    const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'latin1').split('\0');
    assert.ok(argv.includes(SEMI_SPACE_FLAG), `the node runs with ${SEMI_SPACE_FLAG}: ${argv.join(' ')}`);
  } finally {
    child.kill('SIGTERM');
    await exited;
    tmp.cleanup();
  }
});
