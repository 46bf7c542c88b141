/**
 * The asking side of the sync protocols (served by p2p/syncServer.ts; the protocol ids are
 * p2p/sync.ts `syncProtocols`): one request, its whole answer read under a deadline and a minimum
 * rate (p2p/wire.ts), paced per peer the way the server paces its askers. What a peer did wrong is
 * told by the error thrown: a `PeerFault` for an oversized or malformed answer (a ban), a
 * `StalledError` for no stream or an empty answer in time (a strike); p2p/sync.ts judges the peer.
 */
import type { Libp2p, PeerId } from '@libp2p/interface';
import type { Block } from '../core/block.ts';
import type { Genesis } from '../core/genesis.ts';
import type { P2pOptions } from './options.ts';
import { decode, encode, OversizedError, readAll, StalledError } from './wire.ts';
import type { PeerStatus } from './syncServer.ts';
import { checkAnswer, PeerFault } from './answerCheck.ts';
import { RequestBuckets, SYNC_REQUESTS_PER_SECOND } from './requestBuckets.ts';
import { MAX_BANNED } from './banList.ts';

/** Asks peers for their head and their blocks over the sync protocols. */
export class SyncClient {
  private readonly p2p: Pick<Libp2p, 'dialProtocol' | 'getConnections'>;
  private readonly protocols: { status: string; blocks: string };
  private readonly opts: Pick<P2pOptions, 'syncRequestTimeoutMs' | 'syncMinBytesPerSecond' | 'maxSyncResponseBytes'>;
  private readonly genesis: Genesis;
  /** Requests this node may still make of each peer (client side: it paces itself the same way). */
  private readonly asking = new RequestBuckets(SYNC_REQUESTS_PER_SECOND, MAX_BANNED);

  constructor(
    p2p: Pick<Libp2p, 'dialProtocol' | 'getConnections'>,
    protocols: { status: string; blocks: string },
    opts: Pick<P2pOptions, 'syncRequestTimeoutMs' | 'syncMinBytesPerSecond' | 'maxSyncResponseBytes'>,
    genesis: Genesis,
  ) {
    this.p2p = p2p;
    this.protocols = protocols;
    this.opts = opts;
    this.genesis = genesis;
  }

  /** Asks and reads the whole answer; an oversized or malformed one is the peer's fault (a ban). */
  private async ask(peer: PeerId, protocol: string, body: unknown, max: number): Promise<unknown> {
    const timeoutMs = this.opts.syncRequestTimeoutMs;
    const stream = await this.p2p.dialProtocol(peer, protocol, { signal: AbortSignal.timeout(timeoutMs) }).catch((e: unknown) => {
      throw e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError')
        ? new StalledError(`opened no ${protocol} stream within ${timeoutMs} ms`)
        : e;
    });
    let bytes: Uint8Array;
    try {
      await stream.sink([encode(body)]);
      bytes = await readAll(stream, max, { timeoutMs, minBytesPerSecond: this.opts.syncMinBytesPerSecond });
    } catch (e) {
      if (e instanceof OversizedError) throw new PeerFault(`answered ${protocol} with ${e.message}`);
      throw e;
    }
    const answer = decode(bytes, max);
    if (answer !== undefined) return answer;
    // A peer that died mid-answer (its connection is gone) leaves a cut answer through no breach;
    // an empty answer on a live connection is a strike, a malformed one a breach.
    if (!this.p2p.getConnections(peer).some((c) => c.status === 'open')) throw new Error(`connection closed during ${protocol}`);
    if (bytes.byteLength === 0) throw new StalledError(`answered ${protocol} with nothing`);
    throw new PeerFault(`answered ${protocol} with malformed JSON`);
  }

  /** A peer's head. */
  async status(peer: PeerId): Promise<PeerStatus | undefined> {
    const s = (await this.ask(peer, this.protocols.status, {}, 1024 * 1024)) as PeerStatus | undefined;
    return s && typeof s.height === 'number' && typeof s.headHash === 'string' ? s : undefined;
  }

  /** A range of a peer's blocks (at most syncBatch): a checked prefix of it (p2p/answerCheck.ts). */
  async fetch(peer: PeerId, from: number, to: number): Promise<Block[]> {
    await this.asking.wait(peer.toString());
    const answer = await this.ask(peer, this.protocols.blocks, { from, to }, this.opts.maxSyncResponseBytes);
    return checkAnswer(answer, from, to, this.genesis);
  }
}
