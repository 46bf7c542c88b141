/**
 * Slow readers of streamed ranges cannot grow a node's memory: 256 clients on one IP ask
 * `/api/chain/blocks-full` for ranges of 1 MiB blocks over real sockets and stop reading once
 * their answer starts (paused sockets: the kernel's buffers fill, then the server's), anonymous,
 * then 256 more ask `/api/chain/blocks?from=&to=` on the 20 free (tier-1) keys one IP may register. Every streamed answer holds a stream slot until it ends,
 * so at most the tier's streams are open at once, and each one holds a bounded number of bytes
 * while its socket is full. The server is a process of its own (test/helpers/slowReaderServer.ts),
 * measured by its peak RSS.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

const SERVER = fileURLToPath(new URL('../../helpers/slowReaderServer.ts', import.meta.url));
const READERS = 256;
const MB = 1024 * 1024;

/** A field of /proc/PID/status, in bytes (VmRSS, VmHWM). */
function memOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? Number.NaN) * 1024;
}

/** CPU seconds of a process so far. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resolves once `pid` has stopped working: under 20 ms of CPU over a half-second, three times running. */
async function settled(pid: number): Promise<void> {
  let quiet = 0;
  let cpu = cpuOf(pid);
  while (quiet < 3) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuOf(pid);
    quiet = now - cpu < 0.02 ? quiet + 1 : 0;
    cpu = now;
  }
}

/** A client that sends `path` and stops reading at its first bytes; answers the status. */
function slowReader(port: number, path: string, headers: string, sockets: Socket[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n${headers}\r\n`);
    });
    sockets.push(s);
    s.once('data', (d: Buffer) => {
      // Reads nothing more: the socket's buffers fill and the server must stop producing.
      s.pause();
      resolve(Number(d.toString('latin1', 0, 12).split(' ')[1]));
    });
    s.once('error', reject);
  });
}

test('256 slow readers of block ranges on one IP, anonymous then 256 on its 20 free keys, hold at most the IP streams and +128 MB', async () => {
  const child: ChildProcess = spawn(process.execPath, [SERVER, String(MB)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const sockets: Socket[] = [];
  try {
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
      child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
    });
    const { url, keys } = JSON.parse(first) as { url: string; keys: string[] };
    const port = Number(new URL(url).port);
    const pid = child.pid!;
    await settled(pid);
    const base = memOf(pid, 'VmRSS');
    const range = (i: number) => `/api/chain/blocks-full?from=${i * 500}&to=${i * 500 + 499}`;
    const anonymous = await Promise.all(Array.from({ length: READERS }, (_, i) => slowReader(port, range(i), '', sockets)));
    await settled(pid);
    // On the keys, `/api/chain/blocks?from=&to=`: streamed too, though not on a stream path (counted when answered).
    const keyedRange = (i: number) => `/api/chain/blocks?from=${i * 100}&to=${i * 100 + 99}`;
    const keyed = await Promise.all(
      Array.from({ length: READERS }, (_, i) =>
        slowReader(port, keyedRange(READERS * 5 + i), `X-API-Key: ${keys[i % keys.length]}\r\n`, sockets),
      ),
    );
    await settled(pid);
    const peak = memOf(pid, 'VmHWM') - base;
    const count = (xs: number[], s: number) => xs.filter((x) => x === s).length;
    const figures = `anonymous ${count(anonymous, 200)} streamed, keyed ${count(keyed, 200)} streamed; peak RSS +${(peak / MB).toFixed(0)} MB over ${(base / MB).toFixed(0)} MB`;
    console.log(`  ${figures}`);
    assert.ok(
      anonymous.every((s) => s === 200 || s === 429),
      String(anonymous),
    );
    assert.ok(
      keyed.every((s) => s === 200 || s === 429),
      String(keyed),
    );
    // Before: 60 anonymous (the minute's quota) and 255 keyed answers streamed at once.
    assert.ok(count(anonymous, 200) <= 10, figures);
    assert.ok(count(anonymous, 200) + count(keyed, 200) <= 20, `the IP's 20 streams: ${figures}`);
    assert.ok(peak <= 128 * MB, figures);
  } finally {
    for (const s of sockets) s.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
  }
});
