/** The HTTP API: every resource router mounted on one Hono app with shared error handling. */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { defaultApiOptions, type ApiDeps, type ApiOptions } from './context.ts';
import { onError } from './errors.ts';
import { addressRoutes } from './routes/address.ts';
import { blockRoutes } from './routes/blocks.ts';
import { chainRoutes } from './routes/chain.ts';
import { healthRoutes } from './routes/health.ts';
import { mempoolRoutes } from './routes/mempool.ts';
import { statsRoutes } from './routes/stats.ts';
import { tokenomicsRoutes } from './routes/tokenomics.ts';
import { transactionRoutes } from './routes/transactions.ts';
import { walletRoutes } from './routes/wallet.ts';
import { chainEventRoutes, mempoolEventRoutes } from './routes/events.ts';
import { StreamHub } from './streams/streamHub.ts';

/** Builds the app. */
export function createApp(deps: ApiDeps, options: Partial<ApiOptions> = {}): Hono {
  const opts = { ...defaultApiOptions, ...options };
  const app = new Hono({ strict: false });
  // Reads and transaction posts are open to any origin, as the spec says.
  app.use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'], allowHeaders: ['Content-Type', 'X-API-Key', 'X-Alert-Token'] }));
  app.use(
    '*',
    bodyLimit({
      maxSize: opts.maxBodyBytes,
      onError: (c) => c.json({ error: `body is larger than ${opts.maxBodyBytes} bytes`, code: 'PAYLOAD_TOO_LARGE' }, 413),
    }),
  );
  app.route('/api/health', healthRoutes(deps));
  app.route('/api/chain', chainRoutes(deps));
  app.route('/api/chain', blockRoutes(deps));
  app.route('/api/chain', transactionRoutes(deps));
  app.route('/api/chain/mempool', mempoolRoutes(deps));
  app.route('/api/mempool', mempoolRoutes(deps));
  app.route('/api/wallet', walletRoutes(deps));
  app.route('/api/tokenomics', tokenomicsRoutes(deps));
  app.route('/api/address', addressRoutes(deps));
  app.route('/api/stats', statsRoutes(deps));
  const streams = deps.streams ?? new StreamHub(deps.node);
  app.route('/api/chain', chainEventRoutes({ ...deps, streams }));
  app.route('/api/mempool', mempoolEventRoutes({ ...deps, streams }));
  app.notFound((c) => c.json({ error: `no route ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}`, code: 'NOT_FOUND' }, 404));
  app.onError((err, c) => onError(err, c, (e) => deps.node.log.error('request failed', { path: c.req.path.slice(0, 200), error: e.stack ?? e.message })));
  return app;
}
