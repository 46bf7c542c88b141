/**
 * The operator's admin interface: HTTP over a Unix socket in the data dir (`admin.sock`, mode
 * 0600, the node's user only). `ombra keys`, `ombra snapshot export` and `ombra peers` use it
 * while a node runs on the data dir (LevelDB allows one process per data dir).
 *
 *   GET    /admin/keys          every active key (no secrets)
 *   POST   /admin/keys          {tier, label} -> {id, key, tier, label, createdAt} (usable at once)
 *   DELETE /admin/keys/:id      {revoked: n} (the key and those it registered fail at once)
 *   GET    /admin/peers         {peerId, addresses, peers}
 *   GET    /admin/snapshot      the block log as NDJSON from one LevelDB snapshot
 *                               (head in the X-Ombra-Head header)
 *   GET    /admin/checkpoint    a checkpoint (checkpoint/checkpointFile.ts), gzip, taken between two
 *                               writes (`height hash base` in the X-Ombra-Checkpoint header)
 *
 * The socket is bound in a fresh private directory, made 0600 and then renamed into place, so
 * no other user can reach it even for an instant; a stale socket from a crash is replaced.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { chmod, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_LABEL } from '../services/alerts/alertParams.ts';
import { errorMessage } from '../core/errors.ts';
import type { Genesis } from '../core/genesis.ts';
import type { ChainStore } from '../node/store/chainStore.ts';
import type { Logger } from '../node/log.ts';
import type { NetworkView } from '../node/ports.ts';
import { openSnapshotView } from '../node/store/snapshotView.ts';
import { checkpointStream, DEFAULT_SUFFIX_BLOCKS } from '../checkpoint/checkpointExport.ts';
import { type ApiKeyRecord, keyView } from '../services/apiKeyFormat.ts';
import type { ApiKeyStore } from '../services/apiKeys.ts';

/** The admin socket's file name inside a data dir. */
export const ADMIN_SOCKET = 'admin.sock';

/** What the admin interface reaches. */
export interface AdminDeps {
  keys: ApiKeyStore;
  store: ChainStore;
  /** The genesis the node runs with (fork overrides applied): line 1 of a snapshot. */
  genesis: Genesis;
  network: NetworkView;
  log: Logger;
  /** A LevelDB snapshot with the log and every read model at one height (`OmbraNode.consistentSnapshot`): checkpoints. */
  consistentSnapshot?: () => Promise<ReturnType<ChainStore['db']['snapshot']>>;
}

/** A key as the operator lists it: the public view plus who registered it. */
export function adminKeyView(r: ApiKeyRecord) {
  return { ...keyView(r), ownerId: r.ownerId, createdBy: r.createdBy };
}

const MAX_BODY = 4096;

/** The admin interface of a running node, served on `DATA_DIR/admin.sock`. */
export class AdminServer {
  readonly path: string;
  private readonly deps: AdminDeps;
  private server: Server | null = null;

  constructor(deps: AdminDeps, dataDir: string) {
    this.deps = deps;
    this.path = join(dataDir, ADMIN_SOCKET);
  }

  /**
   * Lifecycle: binds the socket (replacing a stale one) with mode 0600. A socket that cannot be
   * bound (a data dir path longer than a Unix socket path may be) is a warning, not a failed start:
   * the node serves as before, and the admin commands then need it stopped.
   */
  async start(): Promise<void> {
    try {
      await this.bind();
    } catch (e) {
      this.deps.log.warn('admin socket unavailable: keys, peers and snapshot export need the node stopped', {
        path: this.path,
        error: errorMessage(e),
      });
    }
  }

  private async bind(): Promise<void> {
    const dir = await mkdtemp(join(this.path, '..', '.admin-'));
    const bound = join(dir, ADMIN_SOCKET);
    const server = createServer((req, res) => {
      this.handle(req, res).catch((e) => {
        this.deps.log.warn('admin request failed', { path: req.url ?? '', error: errorMessage(e) });
        if (!res.headersSent) answer(res, 500, { error: errorMessage(e), code: 'INTERNAL' });
        else res.destroy();
      });
    });
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(bound, () => resolve());
      });
      await chmod(bound, 0o600);
      // This node holds the data dir's LevelDB lock: a socket already there is a crashed node's.
      await rm(this.path, { force: true });
      await rename(bound, this.path);
    } catch (e) {
      server.close();
      throw e;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    this.server = server;
  }

  /** Lifecycle: stops serving and removes the socket. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(this.path, { force: true });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { keys, network } = this.deps;
    const path = new URL(req.url ?? '/', 'http://admin').pathname;
    const method = req.method ?? 'GET';
    if (path === '/admin/keys' && method === 'GET') {
      const all = keys.all().sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
      return answer(res, 200, { keys: all.map(adminKeyView) });
    }
    if (path === '/admin/keys' && method === 'POST') {
      const body = await readJson(req);
      const tier = body?.tier;
      const label = body?.label ?? '';
      if (tier !== 1 && tier !== 2) return answer(res, 400, { error: 'tier must be 1 or 2', code: 'INVALID_PARAMS' });
      if (typeof label !== 'string' || label.length > MAX_LABEL || /[\x00-\x1f\x7f]/.test(label))
        return answer(res, 400, {
          error: `label must be at most ${MAX_LABEL} characters, without control characters`,
          code: 'INVALID_PARAMS',
        });
      const { record, key } = await keys.create({ tier, label, createdBy: 'operator' });
      return answer(res, 200, { id: record.id, key, tier: record.tier, label: record.label, createdAt: record.createdAt });
    }
    const revoke = /^\/admin\/keys\/([A-Za-z0-9_]{1,64})$/.exec(path);
    if (revoke && method === 'DELETE') {
      const revoked = await keys.revoke(revoke[1]);
      if (!revoked) return answer(res, 404, { error: `no active key ${revoke[1]}`, code: 'NOT_FOUND' });
      return answer(res, 200, { revoked });
    }
    if (path === '/admin/peers' && method === 'GET')
      return answer(res, 200, {
        peerId: network.peerId(),
        addresses: network.addresses(),
        syncing: network.syncing(),
        peers: network.peers(),
      });
    if (path === '/admin/snapshot' && method === 'GET') {
      const view = await openSnapshotView(this.deps.store, () => this.deps.genesis);
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'x-ombra-head': `${view.head.index} ${view.head.hash}` });
      // A fault mid-stream ends the response early: the client sees a short body and refuses it.
      await pipeline(Readable.from(view.lines()), res).catch(() => view.close());
      return;
    }
    if (path === '/admin/checkpoint' && method === 'GET' && this.deps.consistentSnapshot) {
      const suffix = Number(new URL(req.url ?? '/', 'http://admin').searchParams.get('suffixBlocks') ?? DEFAULT_SUFFIX_BLOCKS);
      if (!Number.isSafeInteger(suffix) || suffix < 1)
        return answer(res, 400, { error: 'suffixBlocks must be a positive integer', code: 'INVALID_PARAMS' });
      const { header, stream } = await checkpointStream(this.deps.store, await this.deps.consistentSnapshot(), { suffixBlocks: suffix });
      res.writeHead(200, { 'content-type': 'application/gzip', 'x-ombra-checkpoint': `${header.height} ${header.hash} ${header.base}` });
      // A fault mid-stream cuts the response: the client sees it end early and keeps no file.
      await pipeline(stream, res).catch(() => {
        stream.destroy();
        res.destroy();
      });
      return;
    }
    return answer(res, 404, { error: `no admin route ${method} ${path}`, code: 'NOT_FOUND' });
  }
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A small JSON body, or null when it is missing, too large or not JSON. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    if (text.length > MAX_BODY) return null;
  }
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' ? v : null;
  } catch {
    return null;
  }
}
