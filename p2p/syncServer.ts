/**
 * The serving side of sync: `status` answers this node's head and the peers it knows; `blocks`
 * answers a prefix of a range of stored blocks, bounded by blocks and by UTF-8 bytes, to askers
 * within their token bucket (p2p/requestBuckets.ts).
 */
import type { Libp2p } from '@libp2p/interface';
import type { NetworkPorts } from '../node/ports.ts';
import type { P2pOptions } from './options.ts';
import type { RequestBuckets } from './requestBuckets.ts';
import { decode, encode, encodeText, readAll } from './wire.ts';
import { fieldOf } from '../core/encoding.ts';

/** A peer's answer to `status`. */
export interface PeerStatus {
  genesisHash: string;
  height: number;
  headHash: string;
  headTimestamp: number;
  peers: string[];
}

/** Room kept in an answer for its JSON frame around the blocks. */
const FRAME_BYTES = 65_536;

/** Registers the `status` and `blocks` handlers. */
export async function serveSync(
  p2p: Libp2p,
  protocols: { status: string; blocks: string },
  ports: NetworkPorts,
  opts: P2pOptions,
  asked: RequestBuckets,
  knownPeers: () => Promise<string[]>,
): Promise<void> {
  await p2p.handle(protocols.status, async ({ stream }) => {
    const head = ports.chain.head();
    const status: PeerStatus = {
      genesisHash: ports.chain.info.genesisBlock.hash,
      height: head.index,
      headHash: head.hash,
      headTimestamp: head.timestamp,
      peers: await knownPeers().catch(() => []),
    };
    await stream.sink([encode(status)]).catch(() => undefined);
  });
  await p2p.handle(protocols.blocks, async ({ stream, connection }) => {
    try {
      if (asked.take(connection.remotePeer.toString(), Date.now()) > 0) {
        await stream.sink([encode({ error: 'too many sync requests; slow down' })]);
        return;
      }
      const req: unknown = decode(await readAll(stream, 1024), 1024);
      const from = Number(fieldOf(req, 'from'));
      const to = Number(fieldOf(req, 'to'));
      if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || from < 0 || to < from || to - from + 1 > opts.syncBatch) {
        await stream.sink([encode({ error: `ranges are from..to, at most ${opts.syncBatch} blocks` })]);
        return;
      }
      // A node started from a checkpoint holds no blocks between 0 and its log's first: a refusal
      // saying from where it holds them (the asker tries another peer without striking this one),
      // never a short answer it would take for a breach.
      const first = ports.blocks.logFrom ?? 1;
      if (from > 0 && from < first) {
        await stream.sink([encode({ error: `this node holds blocks from ${first} only (it started from a checkpoint)`, heldFrom: first })]);
        return;
      }
      // Bounded by bytes too: a prefix of the range, at least one block (the asker continues).
      // Counted in UTF-8 bytes, as the asker reads them (text beyond ASCII takes up to 3 a character):
      // an answer over the asker's limit would get this node banned.
      // The stored JSON text of each block goes out as it is: no parse and re-serialisation.
      const blocks = await ports.blocks.blocksJsonIn(from, to);
      let bytes = 0;
      let n = 0;
      while (n < blocks.length) {
        bytes += Buffer.byteLength(blocks[n]);
        if (n > 0 && bytes > opts.maxSyncResponseBytes - FRAME_BYTES) break;
        n++;
      }
      await stream.sink([encodeText(`{"blocks":[${(n === blocks.length ? blocks : blocks.slice(0, n)).join(',')}]}`)]);
    } catch {
      stream.abort(new Error('bad sync request'));
    }
  });
}
