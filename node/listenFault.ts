/**
 * A listen address the node cannot have (HTTP, metrics, p2p), as the operator's one-line startup
 * error: which address, why, and the flag that chooses another. `ombra` prints it without a stack.
 */

/** A listen address that cannot be had, named by the flag that chose it. */
export class ListenFault extends Error {}

/**
 * The ListenFault for failing to listen on `host:port`: `what` names the listener ("the p2p
 * address"), `code` is the socket error's code (EADDRINUSE...), `fix` says how to choose another ("with --p2p-port").
 */
export function listenFault(what: string, host: string, port: number, code: string | undefined, fix: string): ListenFault {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const why = code === 'EADDRINUSE' ? 'is taken by another process' : `cannot be listened on (${code ?? 'unknown error'})`;
  return new ListenFault(`${what} ${where} ${why}: stop that process or choose another ${fix}`);
}
