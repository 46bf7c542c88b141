/**
 * The CLI side of the admin socket (api/adminServer.ts): a request to the node running on a
 * data dir, or null when none runs there (no socket, or a stale one nobody listens on), so the
 * command falls back to opening the stopped data dir itself. The listener is trusted only when it
 * can be the node's: a socket owned by this user (or, for root, by the data dir's owner), open to
 * nobody else, in a data dir no other user may write to. Anything else may be another user's
 * listener answering forged keys, peers or a forged snapshot: it is refused, never spoken to.
 */
import { lstatSync, type Stats } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { ADMIN_SOCKET } from '../api/adminServer.ts';
import { CliFault } from '../launch/dataDir.ts';
import { errorCode } from '../core/errors.ts';

/** The admin socket of a data dir. */
function adminSocketOf(dataDir: string): string {
  return join(dataDir, ADMIN_SOCKET);
}

/** True for the errors that mean "no node listens on this socket". */
function noListener(e: unknown): boolean {
  const code = errorCode(e);
  return code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ENOTSOCK';
}

const modeOf = (st: Stats) => (st.mode & 0o7777).toString(8).padStart(4, '0');

/**
 * Refuses an admin socket that may not be the node's (see above); false when there is none. Owner
 * and mode are what a Unix socket can show without SO_PEERCRED: another user cannot make a file
 * ours, and with the dir closed to others nobody can swap the socket after this check.
 */
function trustedSocket(sock: string): boolean {
  let st: Stats;
  try {
    st = lstatSync(sock);
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return false;
    throw e;
  }
  const me = process.getuid?.();
  if (me === undefined) return true;
  const dir = lstatSync(dirname(sock));
  const where = resolve(dirname(sock));
  if ((dir.mode & 0o022) !== 0 || (dir.uid !== me && me !== 0))
    throw new CliFault(
      `not using ${resolve(sock)}: the data dir ${where} (owner uid ${dir.uid}, mode ${modeOf(dir)}) may be written by other users, so its admin socket may not be the node's; \`chmod 700 ${where}\` as its owner, or start the node once (it does so)`,
    );
  const owners = me === 0 ? [0, dir.uid] : [me];
  if (!st.isSocket() || !owners.includes(st.uid) || (st.mode & 0o077) !== 0)
    throw new CliFault(
      `not using ${resolve(sock)}: ${st.isSocket() ? 'a socket' : 'not a socket'} owned by uid ${st.uid} with mode ${modeOf(st)}, and the node's is a socket of uid ${owners.join(' or ')} with mode 0600; another user's listener would answer forged keys or snapshots. Remove it if no node runs`,
    );
  return true;
}

/** Opens `method path` on the admin socket: the response, or null when no node runs on the data dir. */
export function adminOpen(dataDir: string, method: string, path: string, body?: unknown): Promise<IncomingMessage | null> {
  if (!trustedSocket(adminSocketOf(dataDir))) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      {
        socketPath: adminSocketOf(dataDir),
        method,
        path,
        headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      resolve,
    );
    req.on('error', (e) => {
      if (noListener(e)) resolve(null);
      else if (errorCode(e) === 'EACCES')
        reject(new CliFault(`cannot use ${adminSocketOf(dataDir)}: permission denied (run as the node's user)`));
      else reject(e);
    });
    req.end(payload);
  });
}

/**
 * A JSON request on the admin socket: its answer, or null when no node runs on the data dir.
 * An error answer is a CliFault with the node's message.
 */
export async function adminJson<T>(dataDir: string, method: string, path: string, body?: unknown): Promise<T | null> {
  const res = await adminOpen(dataDir, method, path, body);
  if (!res) return null;
  let text = '';
  for await (const chunk of res) text += chunk;
  let parsed: { error?: string; code?: string };
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliFault(`the node's admin socket answered ${res.statusCode} with no JSON`);
  }
  if ((res.statusCode ?? 500) >= 400) throw new CliFault(`${parsed.error ?? 'refused'} (${parsed.code ?? res.statusCode})`);
  return parsed as T;
}
