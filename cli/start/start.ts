/** `ombra start`: run a dev node or a network node until SIGINT/SIGTERM. */
import type { P2pOptions } from '../../p2p/options.ts';
import { parseListenAddr } from '../../api/metricsServer.ts';
import { errorMessage } from '../../core/errors.ts';
import { keyPairFromMnemonic, DEV_MNEMONIC } from '../../core/keys.ts';
import { intFlag, parseFlags, requiredIntFlag, UsageError } from '../args.ts';
import { forkOverridesFromEnv } from '../forks.ts';
import { devGenesis, loadGenesisFile } from './genesisFile.ts';
import { readKeyFile } from './keyFile.ts';
import { launch, type Launched } from '../../launch/launch.ts';
import type { LaunchConfig } from '../../launch/launchConfig.ts';
import { samePorts, StorageRecovery } from '../../launch/storageRecovery.ts';
import { secureDataDir } from '../../launch/dataDir.ts';
import { readSecretFile, tierKeysFrom } from './secretFile.ts';
import { installFromSource } from '../../launch/checkpointStart.ts';
import { checkpointFetchOf, checkpointSourceOf } from './checkpointFlags.ts';
import { parseMinFees } from './minFees.ts';
import { loggerFromFlags } from './logSetup.ts';
import { DEFAULT_METRICS_ADDR, START_FLAGS } from './startFlags.ts';
import { burstProgress, type ProgressReport } from '../progress.ts';
import { defaultStatusLogOptions, StatusLog } from '../../launch/statusLog.ts';
import { parseBanList } from '../../api/banList.ts';
import type { RateLimitOptions } from '../../api/rateLimitOptions.ts';
import { trustedProxies } from '../../api/clientIp.ts';
import type { AlertOptions } from '../../services/alerts/alertService.ts';
import type { ServerLimits } from '../../api/serverLimits.ts';

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
  const dataDir = flags['data-dir'] ?? (dev ? './data/dev' : './data/node');
  const genesis = dev ? devGenesis(blockTimeMs ?? 1000) : flags.genesis ? loadGenesisFile(flags.genesis) : undefined;
  if (dev && flags.genesis) throw new UsageError('--dev uses the dev genesis; drop --genesis');
  const checkpoint = checkpointSourceOf(flags);
  const historyWaitMs = intFlag(flags, 'checkpoint-history-wait-ms', 0, 7 * 86_400_000);
  const key = flags['key-file'] ? await readKeyFile(flags['key-file']) : dev ? keyPairFromMnemonic(DEV_MNEMONIC, 0) : undefined;

  const peers = flags.peer ?? [];
  for (const p of peers)
    if (!/^\/(ip4|ip6|dns4|dns6|dns)\/[^/]+\/tcp\/\d+\/p2p\/\w+$/.test(p))
      throw new UsageError(`--peer ${p} must be a multiaddr like /ip4/127.0.0.1/tcp/7778/p2p/<peerId>`);
  const assumeValid = flags['assume-valid'] ?? null;
  if (assumeValid !== null && !/^[0-9a-f]{64}$/.test(assumeValid))
    throw new UsageError(`--assume-valid ${assumeValid} must be a block hash: 64 lower-case hex characters`);
  const announce = flags['p2p-announce'] ?? [];
  for (const a of announce)
    if (!/^\/(ip4|ip6|dns4|dns6|dns)\/[^/]+\/tcp\/\d+$/.test(a))
      throw new UsageError(`--p2p-announce ${a} must be a multiaddr like /ip4/203.0.113.7/tcp/7778 (no /p2p/)`);
  const p2p: Partial<P2pOptions> = {
    host: flags['p2p-host'],
    port: p2pPort,
    peers,
    announce,
    mdns: flags.mdns === true,
    assumeValid,
  };
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
  const metricsFlag = flags['metrics-addr'] ?? (dev ? undefined : DEFAULT_METRICS_ADDR);
  let metricsAddr: { host: string; port: number } | undefined;
  try {
    metricsAddr = metricsFlag === undefined ? undefined : parseListenAddr(metricsFlag, '--metrics-addr');
  } catch (e) {
    throw new UsageError(errorMessage(e));
  }
  const metricsOnApi = dev || flags['metrics-public'] === true;
  const maxLagBlocks = requiredIntFlag(flags, 'max-lag-blocks', 0, 1_000_000);
  const limitsFlag = flags['rate-limits'] ?? (dev ? 'off' : 'on');
  if (limitsFlag !== 'on' && limitsFlag !== 'off') throw new UsageError('--rate-limits must be on or off');
  const smtpUrl = flags['smtp-url'];
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^\s/]+(:[0-9]{1,5})?\/?$/.test(smtpUrl.replace(/\/\/[^@/]*@/, '//')))
    throw new UsageError('--smtp-url must look like smtp://HOST:PORT (or smtps://USER:PASS@HOST:PORT)');
  const named = flags['trusted-proxy'] ?? [];
  // Trusting every hop would let any client that reaches the port name its own IP in
  // X-Forwarded-For and escape bans and rate limits: the old flag now needs the proxies named.
  if (flags['trust-proxy'] === true && named.length === 0)
    throw new UsageError('--trust-proxy no longer trusts every hop: name your reverse proxies with --trusted-proxy CIDR');
  // Bans (and the proxies that name a client's IP) apply with limits off too.
  const banned = flags['ban-ip'] ?? [];
  try {
    parseBanList(banned);
  } catch (e) {
    throw new UsageError(`--ban-ip: ${errorMessage(e)}`);
  }
  try {
    trustedProxies(named);
  } catch (e) {
    throw new UsageError(`--trusted-proxy: ${errorMessage(e)}`);
  }
  const tokenFile = flags['trusted-proxy-token-file'];
  if (tokenFile !== undefined && named.length === 0)
    throw new UsageError('--trusted-proxy-token-file needs --trusted-proxy (the proxies that show the token)');
  const rateLimits: Partial<RateLimitOptions> = {
    banned,
    trustedProxies: named,
    enforceLimits: limitsFlag === 'on',
    ...(tokenFile === undefined ? {} : { trustedProxyToken: readSecretFile(tokenFile, 'trusted-proxy-token-file') }),
  };
  const tierKeys = tierKeysFrom(flags['api-key-secret-file']);
  const minFee = parseMinFees(flags['min-fee'] ?? []);
  const minFeePerKB = BigInt(intFlag(flags, 'min-fee-per-kb', 0, 1_000_000_000) ?? 0);
  // A dev node runs on one machine: its webhooks are the developer's own loopback listeners.
  const alerts: Partial<AlertOptions> = { allowPrivate: dev || flags['webhook-allow-private'] === true, smtpUrl };
  if (flags['smtp-from']) alerts.mailFrom = flags['smtp-from'];
  if (flags['public-url']) alerts.publicUrl = flags['public-url'].replace(/\/+$/, '');
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
      rate: r.rate,
      etaSeconds: r.etaSeconds && Math.round(r.etaSeconds),
    });
  const httpLimits: Partial<ServerLimits> = {};
  const limit = (flag: string, key: Exclude<keyof ServerLimits, 'exemptFromPerIp'>, min: number, max: number) => {
    const v = intFlag(flags, flag, min, max);
    if (v !== undefined) httpLimits[key] = v;
  };
  limit('http-headers-timeout-ms', 'headersTimeoutMs', 100, 600_000);
  limit('http-request-timeout-ms', 'requestTimeoutMs', 100, 3_600_000);
  limit('http-keepalive-timeout-ms', 'keepAliveTimeoutMs', 100, 600_000);
  limit('http-idle-timeout-ms', 'idleTimeoutMs', 0, 3_600_000);
  limit('http-max-connections', 'maxConnections', 1, 1_000_000);
  limit('http-max-connections-per-ip', 'maxConnectionsPerIp', 0, 1_000_000);
  // A trusted proxy holds the connections of many clients: the per-IP cap is for clients.
  httpLimits.exemptFromPerIp = named;
  const statusIntervalMs = intFlag(flags, 'status-interval-ms', 0, 86_400_000) ?? defaultStatusLogOptions.statusIntervalMs;
  // Created once the node runs; sync progress and peer changes before that have nobody to tell.
  let status: StatusLog | null = null;
  const syncBar = burstProgress('sync', { unit: 'blocks', report });
  secureDataDir(dataDir);
  if (checkpoint) await installFromSource(checkpoint, dataDir, genesis, log, checkpointFetchOf(flags));
  const config: LaunchConfig = {
    httpLimits,
    onCatchUp: burstProgress('catch-up', { unit: 'blocks', report }),
    onSyncProgress: (height, target) => {
      status?.syncProgress(height, target);
      syncBar(height, target);
    },
    onPeerChange: (change) => status?.peerChanged(change),
    dataDir,
    genesis,
    forkOverrides: forkOverridesFromEnv(),
    key,
    dev,
    httpHost: flags['http-host'],
    httpPort,
    metricsAddr,
    metricsOnApi,
    maxLagBlocks,
    log,
    rateLimits,
    tierKeys,
    alerts,
    p2p,
    mempool: { minFee, minFeePerKB },
    verifyDepth: flags['verify-all'] === true ? Number.POSITIVE_INFINITY : undefined,
    serveUnverified: flags['serve-unverified'] === true,
    checkpointVerifier: historyWaitMs === undefined ? {} : { historyWaitMs },
  };
  let node = await launch(config);
  const statusOf = (n: Launched) =>
    new StatusLog({ feed: n.node, chain: n.node, mempool: n.node.mempool, network: n.p2p ?? { peerCount: () => 0 } }, log, {
      statusIntervalMs,
    });
  status = statusOf(node);
  await status.start();
  // A full disk fences the store; once it takes writes again the node is launched anew on the same ports.
  const recovery = new StorageRecovery({
    dataDir,
    log,
    fault: () => node.node.store.fence.fault,
    relaunch: async () => {
      await status?.stop();
      await node.stop();
      node = await launch(samePorts(config, node));
      status = statusOf(node);
      await status.start();
    },
  });
  recovery.start();
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
      void status?.stop();
      recovery
        .stop()
        .then(() => node.stop())
        .then(resolve, (e: unknown) => {
          log.error('stop failed', { error: errorMessage(e) });
          resolve();
        });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  log.info('stopped');
  return 0;
}
