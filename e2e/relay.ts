/**
 * A TCP relay the runner owns for one ordered pair of nodes (A dials B through it), or for a
 * node's announced "learned route" (which refuses everything). It can cut the link (close every
 * connection and refuse new ones), delay it, or drop it (a black hole: connections stay open and
 * nothing moves either way, as under total packet loss; TCP's own retransmission delivers what was
 * held once healed, so a long drop ends in the nodes' own timeouts, never in corrupt bytes; a
 * byte), and it refuses a dialer that is not the node the link belongs to.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { ownerOfClient } from './socketOwner.ts';
import { portOf } from './http.ts';

/** The state of a link. */
export type LinkMode = 'open' | 'cut' | 'drop';

/** What the relay tells the runner (connections opened and refused). */
type RelayEvent = { event: 'open' | 'close' | 'refused'; relay: string; reason?: string; dialer?: string | null };

/** Options of a relay. */
export interface RelayOptions {
  /** `A->B`, or `learned->B` for a learned-route relay. */
  name: string;
  /** Where traffic goes; null refuses every connection (a learned route). */
  targetPort: number | null;
  /** The one process that may dial through it (name), and every node's pid to name a dialer. */
  dialer: string | null;
  pids: () => Map<string, number>;
  onEvent: (e: RelayEvent) => void;
}

/** One relayed link. */
export class Relay {
  readonly opts: RelayOptions;
  mode: LinkMode = 'open';
  delayMs = 0;
  port = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** Each forwarded socket's other end (a socket that closes takes its peer with it). */
  private readonly peers = new WeakMap<Socket, Socket>();
  /** What waits for a dropped link to heal: forwarders with bytes held, dials not yet connected. */
  private readonly held: (() => void)[] = [];

  constructor(opts: RelayOptions) {
    this.opts = opts;
  }

  /** Listens on a free loopback port (or `port`) and resolves with it. */
  listen(port = 0): Promise<number> {
    const server = createServer({ pauseOnConnect: true }, (s) => this.accept(s));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = portOf(server);
        resolve(this.port);
      });
    });
  }

  /** Cuts the link: every connection closed, new ones refused until heal. */
  cut(): void {
    this.mode = 'cut';
    for (const s of this.sockets) s.destroy();
  }

  /** Drops the link: connections stay open, nothing moves either way until heal (new dials hang). */
  drop(): void {
    this.mode = 'drop';
    for (const s of this.sockets) s.pause();
  }

  /** Restores a cut or dropped link and removes any delay; held bytes and dials go on. */
  heal(): void {
    this.mode = 'open';
    this.delayMs = 0;
    for (const s of this.sockets) s.resume();
    for (const go of this.held.splice(0)) go();
  }

  /** Open connections through it (both ends counted once). */
  get connections(): number {
    return this.sockets.size / 2;
  }

  private accept(client: Socket): void {
    const refuse = (reason: string, dialer?: string | null) => {
      this.opts.onEvent({ event: 'refused', relay: this.opts.name, reason, dialer });
      client.destroy();
    };
    if (this.opts.targetPort === null || this.opts.dialer === null) {
      const dialer = ownerOfClient(client.remotePort ?? 0, this.port, this.opts.pids());
      refuse('learned route: a node dialled an address it learned from a peer', dialer);
      return;
    }
    if (this.mode === 'cut') {
      refuse('link cut');
      return;
    }
    const dialer = ownerOfClient(client.remotePort ?? 0, this.port, this.opts.pids());
    if (dialer !== this.opts.dialer) {
      refuse(`only ${this.opts.dialer} may dial through this relay`, dialer);
      return;
    }
    if (this.mode === 'drop') this.held.push(() => this.connect(client));
    else this.connect(client);
  }

  /** Connects a checked dialer to the link's target and forwards both ways. */
  private connect(client: Socket): void {
    if (client.destroyed) return;
    const upstream = createConnection({ host: '127.0.0.1', port: this.opts.targetPort as number });
    this.track(client);
    this.track(upstream);
    this.forward(client, upstream);
    this.forward(upstream, client);
    upstream.once('connect', () => {
      this.opts.onEvent({ event: 'open', relay: this.opts.name });
      client.resume();
    });
    client.once('close', () => this.opts.onEvent({ event: 'close', relay: this.opts.name }));
  }

  private track(s: Socket): void {
    this.sockets.add(s);
    s.setNoDelay(true);
    s.on('error', () => s.destroy());
    s.once('close', () => {
      this.sockets.delete(s);
      for (const o of this.sockets) if (this.peers.get(o) === s) o.destroy();
    });
  }

  /** Copies `from` to `to` under the link's current mode and delay, in order. */
  private forward(from: Socket, to: Socket): void {
    this.peers.set(from, to);
    const queue: { due: number; chunk: Buffer }[] = [];
    let scheduled = false;
    let lastDue = 0;
    const schedule = (ms: number) => {
      if (scheduled) return;
      scheduled = true;
      if (this.mode === 'drop') this.held.push(pump);
      else setTimeout(pump, Math.max(0, ms));
    };
    const pump = () => {
      scheduled = false;
      if (this.mode === 'drop') return schedule(0);
      for (let next = queue[0]; next && next.due <= Date.now(); next = queue[0]) {
        queue.shift();
        // What falls due for a destroyed end is dropped with it (the loop must still move on).
        if (!to.destroyed) to.write(next.chunk);
      }
      if (queue.length) schedule(queue[0].due - Date.now());
    };
    from.on('data', (chunk: Buffer) => {
      if (this.mode === 'cut') return;
      if (this.mode === 'open' && this.delayMs === 0 && queue.length === 0) {
        if (!to.write(chunk)) {
          from.pause();
          to.once('drain', () => from.resume());
        }
        return;
      }
      // Delayed, or read just before a drop's pause took hold: queued in order.
      if (this.mode === 'drop') from.pause();
      lastDue = Math.max(lastDue, Date.now() + this.delayMs);
      queue.push({ due: lastDue, chunk });
      schedule(lastDue - Date.now());
    });
    from.once('end', () => to.end());
  }

  /** Stops listening and closes every connection. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
