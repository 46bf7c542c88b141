/** `ombra start`: run a dev node or a network node until SIGINT/SIGTERM. */
import type { P2pOptions } from '../p2p/options.ts';
import { parseListenAddr } from '../api/metricsServer.ts';
import { keyPairFromMnemonic, DEV_MNEMONIC } from '../core/keys.ts';
import { helpText, intFlag, parseFlags, requiredIntFlag, UsageError, type FlagSpec } from './args.ts';
import { forkOverridesFromEnv } from './forks.ts';
import { devGenesis, loadGenesisFile, loadKeyFile } from './genesisFile.ts';
import { launch } from './launch.ts';
import { parseMinFees } from './minFees.ts';
import { LOG_FLAGS, loggerFromFlags } from './logSetup.ts';
import { burstProgress, type ProgressReport } from './progress.ts';
import { parseBanList, type RateLimitOptions } from '../api/rateLimit.ts';
import { trustedProxies } from '../api/clientIp.ts';
import type { AlertOptions } from '../services/alerts.ts';
import type { ServerLimits } from '../api/serverLimits.ts';

/** Where a node off --dev serves GET /metrics unless told otherwise. */
export const DEFAULT_METRICS_ADDR = '127.0.0.1:9464';

/** Flags of `ombra start`, each with its environment twin. */
export const START_FLAGS: Record<string, FlagSpec> = {
  dev: { type: 'boolean', env: 'OMBRA_DEV', help: 'run the dev chain: dev genesis, authority = dev mnemonic index 0, no peers needed' },
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory (default ./data/dev with --dev, else ./data/node)' },
  'http-host': { type: 'string', env: 'OMBRA_HTTP_HOST', default: '127.0.0.1', help: 'HTTP listen address' },
  'http-port': { type: 'string', env: 'OMBRA_HTTP_PORT', default: '7777', help: 'HTTP port (0 picks a free one)' },
  'p2p-port': { type: 'string', env: 'OMBRA_P2P_PORT', default: '7778', help: 'libp2p TCP port (0 picks a free one)' },
  'p2p-host': { type: 'string', env: 'OMBRA_P2P_HOST', default: '127.0.0.1', help: 'libp2p listen address' },
  'metrics-addr': {
    type: 'string',
    env: 'OMBRA_METRICS_ADDR',
    help: `GET /metrics listener HOST:PORT (default ${DEFAULT_METRICS_ADDR}; under --dev only when given; port 0 picks one)`,
  },
  'metrics-public': {
    type: 'boolean',
    env: 'OMBRA_METRICS_PUBLIC',
    help: 'serve GET /metrics on the API port too (always so under --dev)',
  },
  'block-time-ms': {
    type: 'string',
    env: 'OMBRA_BLOCK_TIME_MS',
    help: 'slot length in ms, --dev only (default 1000); block time is consensus',
  },
  genesis: { type: 'string', env: 'OMBRA_GENESIS', help: 'genesis JSON file (needed for a new network data dir)' },
  'key-file': { type: 'string', env: 'OMBRA_KEY_FILE', help: 'authority key file {"privateKey": "<hex>"}' },
  peer: { type: 'string', env: 'OMBRA_PEERS', multiple: true, help: 'peer multiaddr to dial (repeatable; env: comma-separated)' },
  mdns: { type: 'boolean', env: 'OMBRA_MDNS', help: 'also discover peers on the local network with mDNS' },
  'p2p-max-connections': { type: 'string', env: 'OMBRA_P2P_MAX_CONNECTIONS', help: 'most libp2p connections (default 64)' },
  'p2p-max-connections-per-ip': {
    type: 'string',
    env: 'OMBRA_P2P_MAX_CONNECTIONS_PER_IP',
    help: 'most inbound libp2p connections from one IP, known peers not counted (default 8)',
  },
  'p2p-reserved-known-connections': {
    type: 'string',
    env: 'OMBRA_P2P_RESERVED_KNOWN_CONNECTIONS',
    help: 'libp2p connections only known peers (--peer and those they name) may use (default 16)',
  },
  'sync-request-timeout-ms': {
    type: 'string',
    env: 'OMBRA_SYNC_REQUEST_TIMEOUT_MS',
    help: 'a sync peer must start answering within this time, then keep 256 KiB/s (default 10000)',
  },
  ...LOG_FLAGS,
  'http-headers-timeout-ms': {
    type: 'string',
    env: 'OMBRA_HTTP_HEADERS_TIMEOUT_MS',
    help: 'a client must send its complete headers within this time (default 10000)',
  },
  'http-request-timeout-ms': {
    type: 'string',
    env: 'OMBRA_HTTP_REQUEST_TIMEOUT_MS',
    help: 'a client must send its complete request within this time (default 30000)',
  },
  'http-keepalive-timeout-ms': {
    type: 'string',
    env: 'OMBRA_HTTP_KEEPALIVE_TIMEOUT_MS',
    help: 'idle keep-alive connections close after this long (default 5000)',
  },
  'http-idle-timeout-ms': {
    type: 'string',
    env: 'OMBRA_HTTP_IDLE_TIMEOUT_MS',
    help: 'a connection with no traffic either way for this long is closed (default 60000; 0 = never)',
  },
  'http-max-connections': { type: 'string', env: 'OMBRA_HTTP_MAX_CONNECTIONS', help: 'most open HTTP connections in all (default 20000)' },
  'http-max-connections-per-ip': {
    type: 'string',
    env: 'OMBRA_HTTP_MAX_CONNECTIONS_PER_IP',
    help: 'most open HTTP connections from one IP, loopback exempt (default 256; 0 = no cap)',
  },
  'rate-limits': { type: 'string', env: 'OMBRA_RATE_LIMITS', help: 'on | off (default on; off under --dev)' },
  'ban-ip': {
    type: 'string',
    env: 'OMBRA_BAN_IPS',
    multiple: true,
    help: 'banned IP or CIDR, answered 403 IP_BANNED (repeatable; env: comma-separated; also DATA_DIR/banned-ips.txt)',
  },
  'verify-all': {
    type: 'boolean',
    env: 'OMBRA_VERIFY_ALL',
    help: 'check the hash chain of the whole block log on open (default: the last 1,000 blocks)',
  },
  'min-fee': {
    type: 'string',
    env: 'OMBRA_MIN_FEES',
    multiple: true,
    help: 'mempool fee floor TYPE=MICRO, e.g. TRANSFER=1000 (repeatable; env: comma-separated; default no floor)',
  },
  'trusted-proxy': {
    type: 'string',
    env: 'OMBRA_TRUSTED_PROXIES',
    multiple: true,
    help: 'a reverse proxy (IP or CIDR) whose X-Forwarded-For is believed: the client IP is the rightmost hop not inside a trusted proxy (repeatable; env: comma-separated)',
  },
  'trust-proxy': {
    type: 'boolean',
    env: 'OMBRA_TRUST_PROXY',
    help: 'deprecated alias: only with --trusted-proxy, which names the proxies (alone it refuses to start: trusting every hop lets any client forge its IP)',
  },
  'smtp-url': {
    type: 'string',
    env: 'OMBRA_SMTP_URL',
    help: 'mail relay for e-mail alerts, smtp://HOST:PORT (e-mail alerts are refused without it)',
  },
  'smtp-from': { type: 'string', env: 'OMBRA_SMTP_FROM', help: 'From: of alert e-mails (default "Ombra node <alerts@ombra.invalid>")' },
  'public-url': { type: 'string', env: 'OMBRA_PUBLIC_URL', help: "base URL alert e-mails link to (default the node's own HTTP URL)" },
  'alert-disable-after': {
    type: 'string',
    env: 'OMBRA_ALERT_DISABLE_AFTER',
    help: 'consecutive failed delivery attempts after which an alert subscription is disabled until its owner re-enables it (default 20)',
  },
  'alert-max-outbox': {
    type: 'string',
    env: 'OMBRA_ALERT_MAX_OUTBOX',
    help: 'alert deliveries waiting, in all (default 10000; 100 per subscription)',
  },
  'alert-max-per-target': {
    type: 'string',
    env: 'OMBRA_ALERT_MAX_PER_TARGET',
    help: 'alert delivery attempts in flight at once to one target host or mail domain (default 2)',
  },
  'webhook-allow-private': {
    type: 'boolean',
    env: 'OMBRA_WEBHOOK_ALLOW_PRIVATE',
    help: 'let webhook targets resolve to loopback/private addresses (local set-ups and tests only)',
  },
};

const USAGE = 'ombra start [--dev] [--data-dir DIR] [--http-port P] [--block-time-ms MS] [--genesis FILE --key-file FILE]';
const SUMMARY =
  'Runs a node: the block log, projections, block production (authorities only) and the HTTP API.\nFork heights follow OMBRA_FORK_HEIGHT and OMBRA_FORK_HEIGHT_V3.._V7 when set.';

/** Help for `ombra start`. */
export const startHelp = () => helpText(USAGE, SUMMARY, START_FLAGS);

/** Runs `ombra start`; resolves when the node has stopped. */
export async function startCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, START_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const log = loggerFromFlags(flags);
  const dev = flags.dev === true;
  const httpPort = requiredIntFlag(flags, 'http-port', 0, 65535);
  const p2pPort = requiredIntFlag(flags, 'p2p-port', 0, 65535);
  const blockTimeMs = intFlag(flags, 'block-time-ms', 100, 3_600_000);
  if (blockTimeMs !== undefined && !dev)
    throw new UsageError('--block-time-ms is only for --dev: a network takes its block time from genesis');
  const dataDir = (flags['data-dir'] as string | undefined) ?? (dev ? './data/dev' : './data/node');
  const genesis = dev ? devGenesis(blockTimeMs ?? 1000) : flags.genesis ? loadGenesisFile(flags.genesis as string) : undefined;
  if (dev && flags.genesis) throw new UsageError('--dev uses the dev genesis; drop --genesis');
  const key = flags['key-file'] ? loadKeyFile(flags['key-file'] as string) : dev ? keyPairFromMnemonic(DEV_MNEMONIC, 0) : undefined;

  const peers = (flags.peer as string[] | undefined) ?? [];
  for (const p of peers)
    if (!/^\/(ip4|ip6|dns4|dns6|dns)\/[^/]+\/tcp\/\d+\/p2p\/\w+$/.test(p))
      throw new UsageError(`--peer ${p} must be a multiaddr like /ip4/127.0.0.1/tcp/7778/p2p/<peerId>`);
  const p2p: Partial<P2pOptions> = { host: flags['p2p-host'] as string, port: p2pPort, peers, mdns: flags.mdns === true };
  const p2pLimit = (
    flag: string,
    key: 'maxConnections' | 'maxConnectionsPerIp' | 'reservedKnownConnections' | 'syncRequestTimeoutMs',
    min: number,
  ) => {
    const v = intFlag(flags, flag, min, 1_000_000);
    if (v !== undefined) p2p[key] = v;
  };
  p2pLimit('p2p-max-connections', 'maxConnections', 1);
  p2pLimit('p2p-max-connections-per-ip', 'maxConnectionsPerIp', 1);
  p2pLimit('p2p-reserved-known-connections', 'reservedKnownConnections', 0);
  p2pLimit('sync-request-timeout-ms', 'syncRequestTimeoutMs', 100);
  // /metrics on its own listener (not under --dev unless asked); on the API port only under --dev or when made public.
  const metricsFlag = (flags['metrics-addr'] as string | undefined) ?? (dev ? undefined : DEFAULT_METRICS_ADDR);
  let metricsAddr: { host: string; port: number } | undefined;
  try {
    metricsAddr = metricsFlag === undefined ? undefined : parseListenAddr(metricsFlag, '--metrics-addr');
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const metricsOnApi = dev || flags['metrics-public'] === true;
  const limitsFlag = (flags['rate-limits'] as string | undefined) ?? (dev ? 'off' : 'on');
  if (limitsFlag !== 'on' && limitsFlag !== 'off') throw new UsageError('--rate-limits must be on or off');
  const smtpUrl = flags['smtp-url'] as string | undefined;
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^\s/]+(:[0-9]{1,5})?\/?$/.test(smtpUrl.replace(/\/\/[^@/]*@/, '//')))
    throw new UsageError('--smtp-url must look like smtp://HOST:PORT (or smtps://USER:PASS@HOST:PORT)');
  const named = (flags['trusted-proxy'] as string[] | undefined) ?? [];
  // Trusting every hop would let any client that reaches the port name its own IP in
  // X-Forwarded-For and escape bans and rate limits: the old flag now needs the proxies named.
  if (flags['trust-proxy'] === true && named.length === 0)
    throw new UsageError('--trust-proxy no longer trusts every hop: name your reverse proxies with --trusted-proxy CIDR');
  // Bans (and the proxies that name a client's IP) apply with limits off too.
  const banned = (flags['ban-ip'] as string[] | undefined) ?? [];
  try {
    parseBanList(banned);
  } catch (e) {
    throw new UsageError(`--ban-ip: ${(e as Error).message}`);
  }
  try {
    trustedProxies(named);
  } catch (e) {
    throw new UsageError(`--trusted-proxy: ${(e as Error).message}`);
  }
  const rateLimits: Partial<RateLimitOptions> = { banned, trustedProxies: named, enforceLimits: limitsFlag === 'on' };
  const minFee = parseMinFees((flags['min-fee'] as string[] | undefined) ?? []);
  const alerts: Partial<AlertOptions> = { allowPrivate: flags['webhook-allow-private'] === true, smtpUrl };
  if (flags['smtp-from']) alerts.mailFrom = flags['smtp-from'] as string;
  if (flags['public-url']) alerts.publicUrl = (flags['public-url'] as string).replace(/\/+$/, '');
  const alertLimit = (flag: string, key: 'disableAfterFailures' | 'maxOutbox' | 'maxConcurrentPerTarget', max: number) => {
    const v = intFlag(flags, flag, 1, max);
    if (v !== undefined) alerts[key] = v;
  };
  alertLimit('alert-disable-after', 'disableAfterFailures', 1_000_000);
  alertLimit('alert-max-outbox', 'maxOutbox', 10_000_000);
  alertLimit('alert-max-per-target', 'maxConcurrentPerTarget', 1000);

  // Catching up and syncing at startup: a bar on a terminal, log records otherwise.
  const report = (_text: string, r: ProgressReport) =>
    log.info(r.task, {
      done: r.done,
      total: r.total,
      unit: r.unit,
      percent: r.percent,
      rate: Math.round(r.rate),
      etaSeconds: r.etaSeconds && Math.round(r.etaSeconds),
    });
  const httpLimits: Partial<ServerLimits> = {};
  const limit = (flag: string, key: keyof ServerLimits, min: number, max: number) => {
    const v = intFlag(flags, flag, min, max);
    if (v !== undefined) httpLimits[key] = v;
  };
  limit('http-headers-timeout-ms', 'headersTimeoutMs', 100, 600_000);
  limit('http-request-timeout-ms', 'requestTimeoutMs', 100, 3_600_000);
  limit('http-keepalive-timeout-ms', 'keepAliveTimeoutMs', 100, 600_000);
  limit('http-idle-timeout-ms', 'idleTimeoutMs', 0, 3_600_000);
  limit('http-max-connections', 'maxConnections', 1, 1_000_000);
  limit('http-max-connections-per-ip', 'maxConnectionsPerIp', 0, 1_000_000);
  const node = await launch({
    httpLimits,
    onCatchUp: burstProgress('catch-up', { unit: 'blocks', report }),
    onSyncProgress: burstProgress('sync', { unit: 'blocks', report }),
    dataDir,
    genesis,
    forkOverrides: forkOverridesFromEnv(),
    key,
    dev,
    httpHost: flags['http-host'] as string,
    httpPort,
    metricsAddr,
    metricsOnApi,
    log,
    rateLimits,
    alerts,
    p2p,
    mempool: { minFee },
    verifyDepth: flags['verify-all'] === true ? Number.POSITIVE_INFINITY : undefined,
  });
  log.info('started', {
    dataDir,
    dev,
    producing: node.producer !== null,
    blockTimeMs: node.node.genesis.blockTimeMs,
    rateLimits: limitsFlag,
    mail: smtpUrl ? 'on' : 'off',
  });
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info('stopping', { signal });
      const force = setTimeout(() => {
        log.error('clean stop took longer than 5 s; exiting');
        process.exit(1);
      }, 5000);
      force.unref();
      node.stop().then(resolve, (e: unknown) => {
        log.error('stop failed', { error: (e as Error).message });
        resolve();
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  log.info('stopped');
  return 0;
}
