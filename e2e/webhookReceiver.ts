/**
 * The runner's webhook receiver: a local HTTP server that answers 200 to every delivery and
 * records it (node, subscription, `webhook-id`, block), and the `miner_block` subscription it
 * makes on each node, so every block a node commits after subscribing should reach it at least
 * once, under one `webhook-id` however often it is retried.
 */
import { createServer, type Server } from 'node:http';
import { fields, type History } from './history.ts';
import { call, portOf } from './http.ts';

/** The receiver of every node's alert deliveries. */
export class WebhookReceiver {
  private server: Server | null = null;
  private port = 0;
  private readonly history: History;

  constructor(history: History) {
    this.history = history;
  }

  /** Listens on a free loopback port. */
  async listen(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: Record<string, unknown> = {};
        try {
          body = fields(JSON.parse(Buffer.concat(chunks).toString('utf8'))) ?? {};
        } catch {
          // recorded as delivered with no block; the checker counts it as unreadable
        }
        this.history.record('webhook', {
          node: decodeURIComponent((req.url ?? '').replace(/^\/hook\//, '')),
          id: req.headers['webhook-id'],
          subscription: req.headers['x-chain-subscription'],
          trigger: req.headers['x-chain-trigger'],
          blockIndex: body.blockIndex,
          blockHash: body.blockHash,
        });
        res.writeHead(200).end('ok');
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = portOf(server);
  }

  /** Subscribes `miner_block` (every block) on the node at `url`, delivered to this receiver. */
  async subscribe(node: string, url: string): Promise<void> {
    const head = await call(`${url}/api/chain/height`);
    const ans = await call(`${url}/api/alerts/subscribe`, {
      body: {
        trigger: 'miner_block',
        params: {},
        channel: 'webhook',
        target: `http://127.0.0.1:${this.port}/hook/${encodeURIComponent(node)}`,
      },
    });
    this.history.record('webhook_subscribe', {
      node,
      status: ans.status,
      id: ans.body?.id,
      height: head.body?.height,
      body: ans.status === 200 ? undefined : ans.body,
    });
  }

  /** Stops the server. */
  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
