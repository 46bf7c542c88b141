/**
 * The CLI side of the admin socket (api/adminServer.ts): a request to the node running on a
 * data dir, or null when none runs there (no socket, or a stale one nobody listens on), so the
 * command falls back to opening the stopped data dir itself.
 */
import { request, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { ADMIN_SOCKET } from '../api/adminServer.ts';
import { CliFault } from './dataDir.ts';

/** The admin socket of a data dir. */
function adminSocketOf(dataDir: string): string {
  return join(dataDir, ADMIN_SOCKET);
}

/** True for the errors that mean "no node listens on this socket". */
function noListener(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ENOTSOCK';
}

/** Opens `method path` on the admin socket: the response, or null when no node runs on the data dir. */
export function adminOpen(dataDir: string, method: string, path: string, body?: unknown): Promise<IncomingMessage | null> {
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
      else if ((e as { code?: string }).code === 'EACCES')
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
