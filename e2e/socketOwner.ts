/**
 * Who holds a loopback TCP socket, read from /proc: the relays use it to refuse a dialer that is
 * not the node their link belongs to, and the runner to prove no node reaches another's p2p port
 * except through a relay (every client socket of a p2p port must be the runner's own).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** One IPv4 TCP socket of /proc/net/tcp. */
interface TcpSocket {
  localPort: number;
  remotePort: number;
  /** 1 = established, 10 = listen (the kernel's TCP state numbers). */
  state: number;
  inode: string;
}

/** Every IPv4 TCP socket on the machine (all network namespaces share this one here). */
function tcpSockets(): TcpSocket[] {
  const out: TcpSocket[] = [];
  const lines = readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1);
  for (const line of lines) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    out.push({
      localPort: Number.parseInt(f[1].split(':')[1], 16),
      remotePort: Number.parseInt(f[2].split(':')[1], 16),
      state: Number.parseInt(f[3], 16),
      inode: f[9],
    });
  }
  return out;
}

/** Socket inodes a process holds open (empty when it is gone). */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return out;
  }
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]);
    } catch {
      // closed between the listing and the read
    }
  }
  return out;
}

/**
 * The process among `pids` (name -> pid) that holds the client end of a connection from
 * `clientPort` to `serverPort` on loopback, or null when none of them does.
 */
export function ownerOfClient(clientPort: number, serverPort: number, pids: Map<string, number>): string | null {
  const sock = tcpSockets().find((s) => s.localPort === clientPort && s.remotePort === serverPort);
  if (!sock) return null;
  for (const [name, pid] of pids) if (socketInodes(pid).has(sock.inode)) return name;
  return null;
}

/**
 * Client sockets connected to any of `serverPorts` that `ownerPid` does not hold: a process
 * reaching a node's p2p port directly instead of through the runner's relays.
 */
export function foreignClients(serverPorts: Set<number>, ownerPid: number): { serverPort: number; clientPort: number }[] {
  const mine = socketInodes(ownerPid);
  return tcpSockets()
    .filter((s) => s.state === 1 && serverPorts.has(s.remotePort) && !mine.has(s.inode))
    .map((s) => ({ serverPort: s.remotePort, clientPort: s.localPort }));
}
