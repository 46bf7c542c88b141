/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temp dir owned by the `postgres` OS user
 * (initdb refuses root), on a free loopback port, trust authentication, stopped by `stop()`.
 * Finds the server binaries on PATH or under /usr/lib/postgresql/<version>/bin (Debian's
 * `postgresql` package; .ci/run installs it). Absent: answers null with a warning, and under
 * CI=true fails.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';

/** A running cluster. */
export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** Runs SQL through psql; answers its unaligned output. */
  psql(sql: string): string;
  /** As psql, but undefined when the statement fails (a table not made yet): for waitFor. */
  tryPsql(sql: string): string | undefined;
  /** `pg_ctl stop -m immediate`: what a power cut leaves (the WAL replays at the next start). */
  crash(): void;
  /** Starts it again on the same data and port. */
  start(): void;
  /** Makes `user` (created with `password`) log in over TCP with SCRAM instead of trust. */
  passwordUser(user: string, password: string): void;
  /** CPU seconds the server's processes used so far (Linux; the exited backends' too, as the postmaster reaped them). */
  cpuSeconds(): number;
  /** Stops it and deletes its files. */
  stop(): void;
}

/** The directory holding initdb, pg_ctl and psql, or null. */
export function postgresBin(): string | null {
  const onPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  return onPath && existsSync(join(onPath, '..', 'initdb')) ? join(onPath, '..') : null;
}

/** A free loopback TCP port. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Runs `bin` as the postgres OS user when we are root (initdb and postgres refuse root). */
function asPostgres(bin: string, args: string[]): void {
  const [cmd, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(cmd as string, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Starts a cluster, or answers null (with a warning naming `what`) when PostgreSQL is not
 * installed outside CI. `fsync` off speeds tests up; a crash test that stops the server
 * immediately needs it on to mean anything.
 */
export async function startPostgres(what: string, opts: { fsync?: boolean } = {}): Promise<PgCluster | null> {
  const bin = postgresBin();
  if (!bin) {
    assert.ok(!process.env.CI, "PostgreSQL is missing: .ci/run installs Debian's postgresql package");
    console.warn(`${what}: PostgreSQL server binaries not found; run \`apt-get install -y postgresql\` to run it`);
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'ombra-pg-'));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const pgOpts = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    `-c fsync=${opts.fsync ? 'on' : 'off'}`,
    '-c shared_buffers=64MB',
    '-c max_wal_size=1GB',
  ].join(' ');
  const start = () => asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-o', pgOpts, '-l', join(dir, 'log'), '-w', 'start']);
  start();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  const psql = (sql: string) =>
    execFileSync(join(bin, 'psql'), ['-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trim();
  return {
    url,
    port,
    psql,
    tryPsql(sql) {
      try {
        return psql(sql);
      } catch {
        return undefined;
      }
    },
    crash: () => asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']),
    start,
    passwordUser(user, password) {
      psql(`CREATE ROLE ${user} LOGIN SUPERUSER PASSWORD '${password}'`);
      const hba = join(data, 'pg_hba.conf');
      // First match wins: ahead of the trust lines initdb wrote.
      writeFileSync(hba, `host all ${user} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
      psql('SELECT pg_reload_conf()');
    },
    cpuSeconds() {
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      let ticks = 0;
      for (const pid of readdirSync('/proc').filter((n) => /^[0-9]+$/.test(n))) {
        let stat: string[];
        try {
          stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
        } catch {
          continue; // gone meanwhile
        }
        // Fields after the name: state ppid ... utime(12) stime(13) cutime(14) cstime(15), 1-based from state.
        const own = Number(stat[11]) + Number(stat[12]);
        if (Number(pid) === postmaster) ticks += own + Number(stat[13]) + Number(stat[14]);
        else if (Number(stat[1]) === postmaster) ticks += own;
      }
      return ticks / 100;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
