/** The flags of `ombra start` (each with its environment twin) and its help text. */
import { flagSpecs, helpText } from '../args.ts';
import { LOG_FLAGS } from './logSetup.ts';

/** Where a node off --dev serves GET /metrics unless told otherwise. */
export const DEFAULT_METRICS_ADDR = '127.0.0.1:9464';

/** Flags of `ombra start`, each with its environment twin. */
export const START_FLAGS = flagSpecs({
  dev: { type: 'boolean', env: 'OMBRA_DEV', help: 'run the dev chain: dev genesis, authority = dev mnemonic index 0, no peers needed' },
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory (default ./data/dev with --dev, else ./data/node)' },
  'http-host': { type: 'string', env: 'OMBRA_HTTP_HOST', default: '127.0.0.1', help: 'HTTP listen address' },
  'http-port': { type: 'string', env: 'OMBRA_HTTP_PORT', default: '7777', help: 'HTTP port (0 picks a free one)' },
  'p2p-port': { type: 'string', env: 'OMBRA_P2P_PORT', default: '7778', help: 'libp2p TCP port (0 picks a free one)' },
  'p2p-host': {
    type: 'string',
    env: 'OMBRA_P2P_HOST',
    default: '127.0.0.1',
    help: 'libp2p listen address, IPv4 or IPv6 (:: for every IPv6 address)',
  },
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
  'key-file': {
    type: 'string',
    env: 'OMBRA_KEY_FILE',
    help: 'authority key file {"privateKey": "<hex>"} or an encrypted keystore (password: OMBRA_KEYSTORE_PASSWORD or a prompt)',
  },
  peer: { type: 'string', env: 'OMBRA_PEERS', multiple: true, help: 'peer multiaddr to dial (repeatable; env: comma-separated)' },
  'p2p-announce': {
    type: 'string',
    env: 'OMBRA_P2P_ANNOUNCE',
    multiple: true,
    help: 'multiaddr (no /p2p/) announced to peers instead of the listen address, for NAT or a proxy (repeatable; env: comma-separated)',
  },
  mdns: { type: 'boolean', env: 'OMBRA_MDNS', help: 'also discover peers on the local network with mDNS' },
  'assume-valid': {
    type: 'string',
    env: 'OMBRA_ASSUME_VALID',
    help: 'block hash (64 hex) whose ancestors synced from peers are imported without checking their signatures (everything else is checked)',
  },
  'p2p-max-connections': { type: 'string', env: 'OMBRA_P2P_MAX_CONNECTIONS', help: 'most libp2p connections (default 64)' },
  'p2p-max-connections-per-ip': {
    type: 'string',
    env: 'OMBRA_P2P_MAX_CONNECTIONS_PER_IP',
    help: 'most inbound libp2p connections from one IP, known peers not counted (default 8)',
  },
  'p2p-reserved-known-connections': {
    type: 'string',
    env: 'OMBRA_P2P_RESERVED_KNOWN_CONNECTIONS',
    help: 'libp2p connections only known peers (--peer, and peers whose blocks this node imported) may use (default 16)',
  },
  'sync-request-timeout-ms': {
    type: 'string',
    env: 'OMBRA_SYNC_REQUEST_TIMEOUT_MS',
    help: 'a sync peer must start answering within this time, then keep 256 KiB/s (default 10000)',
  },
  'max-lag-blocks': {
    type: 'string',
    env: 'OMBRA_MAX_LAG_BLOCKS',
    default: '8',
    help: 'GET /api/health answers 503 "behind" while the node is more than this many blocks below the best head its peers show',
  },
  ...LOG_FLAGS,
  'status-interval-ms': {
    type: 'string',
    env: 'OMBRA_STATUS_INTERVAL_MS',
    help: 'a status line (height, peers, mempool, blocks/s, tx/s) this often at info level (default 30000; 0 = none)',
  },
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
    help: 'most open HTTP connections from one IP, loopback and --trusted-proxy addresses exempt (default 256; 0 = no cap)',
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
    help: 'check the hash chain of the whole block log on open (default: the last 1,000 blocks or 20,000 transactions, whichever is fewer)',
  },
  'from-checkpoint': {
    type: 'string',
    env: 'OMBRA_FROM_CHECKPOINT',
    help: 'start a new data dir from this checkpoint file (`ombra snapshot state`); needs --checkpoint-digest',
  },
  'checkpoint-url': {
    type: 'string',
    env: 'OMBRA_CHECKPOINT_URL',
    help: "fetch the checkpoint over HTTP (another node's /api/checkpoint/DIGEST); needs --checkpoint-digest",
  },
  'checkpoint-digest': {
    type: 'string',
    env: 'OMBRA_CHECKPOINT_DIGEST',
    help: 'hex SHA-256 the checkpoint file must have (a file with another digest is refused)',
  },
  'checkpoint-max-bytes': {
    type: 'string',
    env: 'OMBRA_CHECKPOINT_MAX_BYTES',
    help: 'the most bytes a --checkpoint-url download may take (a longer body or Content-Length is refused; default 16 GiB)',
  },
  'checkpoint-timeout-ms': {
    type: 'string',
    env: 'OMBRA_CHECKPOINT_TIMEOUT_MS',
    help: 'a --checkpoint-url server that sends nothing for this long (connecting, headers or body) ends the download (default 30000)',
  },
  'checkpoint-history-wait-ms': {
    type: 'string',
    env: 'OMBRA_CHECKPOINT_HISTORY_WAIT_MS',
    help: "how long the checkpoint's verification waits for a peer with the history below it before it is `failed` (default 600000)",
  },
  'serve-unverified': {
    type: 'boolean',
    env: 'OMBRA_SERVE_UNVERIFIED',
    help: 'serve reads (health 200) from a checkpoint still being verified; default: reads answer 503 CHECKPOINT_UNVERIFIED until it is',
  },
  'min-fee': {
    type: 'string',
    env: 'OMBRA_MIN_FEES',
    multiple: true,
    help: 'mempool fee floor TYPE=MICRO, e.g. TRANSFER=1000 (repeatable; env: comma-separated; default no floor)',
  },
  'min-fee-per-kb': {
    type: 'string',
    env: 'OMBRA_MIN_FEE_PER_KB',
    help: 'mempool fee floor per 1,000 bytes of a transaction, in micro-units, rounded up (chunks exempt: storage prices them; default 0, no byte floor)',
  },
  'trusted-proxy': {
    type: 'string',
    env: 'OMBRA_TRUSTED_PROXIES',
    multiple: true,
    help: 'a reverse proxy (IP or CIDR) whose X-Forwarded-For is believed: the client IP is the rightmost hop not inside a trusted proxy (repeatable; env: comma-separated)',
  },
  'trusted-proxy-token-file': {
    type: 'string',
    env: 'OMBRA_TRUSTED_PROXY_TOKEN_FILE',
    help: "with --trusted-proxy: X-Forwarded-For is believed only on requests carrying this file's token in X-Ombra-Proxy-Token (the proxy sets it), not on anything else from the proxy's address",
  },
  'api-key-secret-file': {
    type: 'string',
    env: 'OMBRA_API_KEY_SECRET_FILE',
    help: 'a secret (0600 file, 32+ characters) shared by the nodes of a read tier: keys issued here are valid on every node given the same file (docs/scaling.md)',
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
    help: 'let webhook targets resolve to loopback/private addresses (local set-ups and tests only; always so under --dev)',
  },
});

const USAGE = 'ombra start [--dev] [--data-dir DIR] [--http-port P] [--block-time-ms MS] [--genesis FILE --key-file FILE]';
const SUMMARY =
  'Runs a node: the block log, projections, block production (authorities only) and the HTTP API.\nFork heights follow OMBRA_FORK_HEIGHT and OMBRA_FORK_HEIGHT_V3.._V7 when set.';

/** Help for `ombra start`. */
export const startHelp = () => helpText(USAGE, SUMMARY, START_FLAGS);
