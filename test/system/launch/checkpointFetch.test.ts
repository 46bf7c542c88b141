/**
 * `ombra start --checkpoint-url` against hostile HTTP servers (real processes, real sockets): an
 * endless body stops at the size cap, a gzip-encoded body is refused undecoded, a server that goes
 * silent (before or after its headers) times out, a SIGTERM mid-download leaves no temp file, and a
 * slow honest download reports its progress. The caps are given through the flags' environment
 * twins, so the same attack runs against a node that does not know them (and never ends there).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { REPO_ROOT, runCli } from '../../helpers/cliRun.ts';
import { waitFor } from '../../helpers/nodeProcess.ts';
import { tempDir } from '../../helpers/testChain.ts';

const tmp = tempDir('ombra-ckpt-fetch-');
const DIGEST = 'ab'.repeat(32);
const MiB = 2 ** 20;
/** What the hostile server saw: bytes sent, and the request's Accept-Encoding. */
let sent = 0;
let acceptEncoding: string | undefined;
let handler: (req: IncomingMessage, res: ServerResponse) => void = () => {};
let server: Server;
let base = '';

before(async () => {
  server = createServer((req, res) => {
    acceptEncoding = req.headers['accept-encoding'];
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  tmp.cleanup();
});

/** Writes `chunk` to `res` until the client goes or `limit` bytes went (a bound for the test, not the node). */
function pour(res: ServerResponse, chunk: Buffer, limit: number): void {
  const more = () => {
    while (sent < limit && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  res.on('close', () => undefined);
  more();
}

/** The files under `dir`, with their sizes. */
function files(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const s = statSync(join(dir, name));
    if (s.isFile()) out[name] = s.size;
  }
  return out;
}

/** `ombra start` from `url`, with the download limits given in the environment. */
function startFrom(dataDir: string, url: string, env: Record<string, string>, timeoutMs = 120_000) {
  sent = 0;
  return runCli(
    [
      'start',
      '--dev',
      '--data-dir',
      dataDir,
      '--http-port',
      '0',
      '--p2p-port',
      '0',
      '--checkpoint-url',
      url,
      '--checkpoint-digest',
      DIGEST,
    ],
    { env, timeoutMs },
  );
}

test('an endless body stops at --checkpoint-max-bytes and leaves no file', async () => {
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/gzip' });
    pour(res, Buffer.alloc(MiB, 7), 512 * MiB);
  };
  const dataDir = join(tmp.dir, 'endless');
  const r = await startFrom(dataDir, `${base}/api/checkpoint/${DIGEST}`, { OMBRA_CHECKPOINT_MAX_BYTES: String(4 * MiB) });
  console.log(`  endless body: the server sent ${(sent / MiB).toFixed(0)} MiB before the node stopped reading`);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /goes on past 4194304 bytes/);
  assert.ok(sent < 64 * MiB, `the server sent ${sent} bytes`);
  assert.deepEqual(files(dataDir), {});
});

test('a Content-Length above the cap is refused before the body is read', async () => {
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': String(100 * MiB) });
    pour(res, Buffer.alloc(MiB, 7), 100 * MiB);
  };
  const dataDir = join(tmp.dir, 'long');
  const r = await startFrom(dataDir, `${base}/x.ckpt`, { OMBRA_CHECKPOINT_MAX_BYTES: String(4 * MiB) });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /104857600 bytes, more than the 4194304/);
  assert.deepEqual(files(dataDir), {});
});

test('a gzip-encoded body is refused, not inflated, and identity was asked for', async () => {
  // 1 MiB on the wire that inflates to 1 GiB.
  const bomb = gzipSync(Buffer.alloc(1024 * MiB), { level: 9 });
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Encoding': 'gzip', 'Content-Length': String(bomb.length) });
    sent += bomb.length;
    res.end(bomb);
  };
  const dataDir = join(tmp.dir, 'gzip');
  const r = await startFrom(dataDir, `${base}/api/checkpoint/${DIGEST}`, {});
  console.log(`  gzip: ${bomb.length} bytes sent, ${Object.values(files(dataDir)).reduce((a, b) => a + b, 0)} bytes on disk at exit`);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(acceptEncoding, 'identity');
  assert.match(r.stderr, /Content-Encoding gzip/);
  assert.deepEqual(files(dataDir), {});
});

test('a server silent after its headers, or before them, times out with one line', async () => {
  for (const [name, h] of [
    ['after', (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200, { 'Content-Type': 'application/gzip' }).flushHeaders()],
    ['before', () => undefined],
  ] as const) {
    handler = h;
    const dataDir = join(tmp.dir, `silent-${name}`);
    const r = await startFrom(dataDir, `${base}/api/checkpoint/${DIGEST}`, { OMBRA_CHECKPOINT_TIMEOUT_MS: '500' }, 60_000);
    assert.ok(!r.timedOut, `silent ${name} its headers: still waiting after 60 s`);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /nothing for 500 ms/);
    assert.deepEqual(files(dataDir), {});
  }
  server.closeAllConnections();
});

test('SIGTERM mid-download removes the temp file', async () => {
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/gzip' });
    pour(res, Buffer.alloc(MiB, 7), 256 * MiB);
  };
  sent = 0;
  const dataDir = join(tmp.dir, 'sigterm');
  const child = spawn(
    process.execPath,
    [
      'cli/bin.js',
      'start',
      '--dev',
      '--data-dir',
      dataDir,
      '--http-port',
      '0',
      '--p2p-port',
      '0',
      '--checkpoint-url',
      `${base}/x`,
      '--checkpoint-digest',
      DIGEST,
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, OMBRA_CHECKPOINT_MAX_BYTES: String(1024 * MiB) } },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise((r) => child.once('exit', r));
  await waitFor(async () => (sent >= 16 * MiB ? true : undefined), 60_000);
  child.kill('SIGTERM');
  await exited;
  server.closeAllConnections();
  assert.deepEqual(files(dataDir), {}, stderr);
});

test('a slow honest download logs its progress', async () => {
  const body = Buffer.alloc(8 * MiB, 1);
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/gzip', 'Content-Length': String(body.length) });
    let i = 0;
    const next = () => {
      if (i >= 8) return void res.end();
      res.write(body.subarray(i * MiB, ++i * MiB));
      setTimeout(next, 50);
    };
    next();
  };
  const dataDir = join(tmp.dir, 'progress');
  const r = await startFrom(dataDir, `${base}/api/checkpoint/${DIGEST}`, {});
  // The body is no checkpoint: its digest is refused after the download, which logged its way.
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /checkpoint digest mismatch/);
  const lines = r.stderr.split('\n').filter((l) => /checkpoint download/.test(l));
  assert.ok(lines.length >= 2, r.stderr);
  assert.match(lines.at(-1) ?? '', /"percent":100/);
  assert.deepEqual(files(dataDir), {});
});
