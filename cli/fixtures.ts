/**
 * `npm run fixtures`: records fixtures/simulated-chain.ndjson again, through the commands an
 * operator runs: `ombra start --dev --block-time-ms 200` in a fresh data dir, `ombra simulate
 * --seconds 14 --seed 42` against it, then (the node stopped) `ombra snapshot export`. Run it after
 * adding a transaction type the simulator sends (test/system/cli/simulate.test.ts fails until then).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('./bin.js', import.meta.url));
const OUT = fileURLToPath(new URL('../fixtures/simulated-chain.ndjson', import.meta.url));
const SIMULATE = ['--seconds', '14', '--seed', '42'];

/** Runs `ombra ...args` to its end; rejects unless it exits with 0. */
function ombra(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ombra ${args.join(' ')} exited with ${code}`))));
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'ombra-fixtures-'));
try {
  const node = spawn(
    process.execPath,
    [BIN, 'start', '--dev', '--data-dir', dataDir, '--block-time-ms', '200', '--http-port', '0', '--p2p-port', '0', '--log-format', 'json'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<number | null>((resolve) => node.once('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    node.stderr.on('data', (d: Buffer) => {
      log += d.toString();
      const m = /"msg":"node serving","url":"([^"]+)"/.exec(log);
      if (m) resolve(m[1]);
    });
    exited.then((code) => reject(new Error(`ombra start exited (${code}) before serving:\n${log}`)));
  });
  try {
    await ombra(['simulate', '--url', url, ...SIMULATE]);
  } finally {
    node.kill('SIGTERM');
    await exited;
  }
  await ombra(['snapshot', 'export', '--data-dir', dataDir, '--out', OUT]);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
