/**
 * The read tier of docs/scaling.md on loopback, as real processes: one authority (`ombra start
 * --key-file`), N followers (`ombra start` without a key, dialling the authority) and HAProxy
 * configured from deploy/haproxy.cfg.template in front of the followers' HTTP ports. Every port is
 * picked here; `stop` ends every process it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT, runCli } from './cliRun.ts';
import { startNodeProcess, waitFor, type NodeProcess } from './nodeProcess.ts';
import { tempDir } from './testChain.ts';

/** How long a node process may take to serve: several start at once beside other test files. */
const START_MS = 60_000;

/** True where the `haproxy` binary is installed (.ci/run installs the Debian package). */
export const haveHaproxy = (): boolean => spawnSync('haproxy', ['-v']).status === 0;

/** A port that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * deploy/haproxy.cfg.template with the balancer's and stats addresses, one server line per
 * follower URL and the proxy token the followers check.
 */
export function renderHaproxyConfig(listen: string, stats: string, followers: string[], proxyToken = PROXY_TOKEN): string {
  const servers = followers.map((url, i) => `    server follower${i + 1} ${new URL(url).host} check`).join('\n');
  return readFileSync(join(REPO_ROOT, 'deploy/haproxy.cfg.template'), 'utf8')
    .replace(/^(\s*bind )@LISTEN@$/m, `$1${listen}`)
    .replace(/^(\s*bind )@STATS@$/m, `$1${stats}`)
    .replace(/^@SERVERS@$/m, servers)
    .replaceAll('@PROXY_TOKEN@', proxyToken);
}

/** The tier's proxy token (the followers' --trusted-proxy-token-file) and API key secret (every node's --api-key-secret-file). */
const PROXY_TOKEN = 'proxy-token-of-the-test-tier-0123456789abcdef';
const API_KEY_SECRET = 'api-key-secret-of-the-test-tier-0123456789abcdef';

/** A HAProxy process from the template in front of `followers` (URLs), up once it sees every one of them up. */
interface Balancer {
  child: ChildProcess;
  exited: Promise<unknown>;
  url: string;
  /** A column of HAProxy's stats for server i: `status` ("UP", "DOWN", "UP 1/2" ...) by default, `scur` (open sessions) ... */
  serverStatus(i: number, column?: string): Promise<string>;
}

/** Starts HAProxy (config written into `dir`) on picked loopback ports; stop it by killing `child`. */
async function startHaproxy(dir: string, followers: string[]): Promise<Balancer> {
  const [lbPort, statsPort] = [await freePort(), await freePort()];
  const cfg = join(dir, `haproxy-${lbPort}.cfg`);
  writeFileSync(cfg, renderHaproxyConfig(`127.0.0.1:${lbPort}`, `127.0.0.1:${statsPort}`, followers));
  const child = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
  const exited = new Promise((r) => child.once('exit', r));
  const serverStatus = async (i: number, column = 'status'): Promise<string> => {
    const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
    const [head, ...rows] = csv.trim().split('\n');
    const col = head.replace(/^# /, '').split(',').indexOf(column);
    const row = rows.map((r) => r.split(',')).find((r) => r[0] === 'ombra_followers' && r[1] === `follower${i + 1}`);
    return row?.[col] ?? 'absent';
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`haproxy exited: ${log}`);
        const all = await Promise.all(followers.map((_, i) => serverStatus(i).catch(() => 'no stats yet')));
        return all.every((s) => s === 'UP') ? true : undefined;
      },
      // Health checks answered late on a loaded machine take a few rounds to count.
      60_000,
      100,
    );
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return { child, exited, url: `http://127.0.0.1:${lbPort}`, serverStatus };
}

/** A running tier. */
export interface ReadTier {
  authority: NodeProcess;
  /** The followers (null once killed). */
  followers: (NodeProcess | null)[];
  /** The balancer's URL (HAProxy's frontend). */
  url: string;
  /** The balancer's process id. */
  haproxyPid: number;
  genesisFile: string;
  /** A column of HAProxy's stats for follower i: `status` ("UP", "DOWN", "UP 1/2" ...) by default, `scur` (open sessions) ... */
  serverStatus(i: number, column?: string): Promise<string>;
  /** Kills follower i (SIGKILL) and waits for its exit. */
  kill(i: number): Promise<void>;
  /** Another HAProxy in front of the given followers only (stopped with the tier). */
  balancer(followers: number[]): Promise<Balancer>;
  stop(): Promise<void>;
}

/** Options of `startReadTier`. */
export interface ReadTierOptions {
  followers: number;
  /** Slot length of the test network (default 300 ms). */
  blockTimeMs?: number;
  /** Extra `ombra start` flags of every node. */
  nodeArgs?: string[];
  /** Extra `ombra start` flags of follower i. */
  followerArgs?: (i: number) => string[];
  /** Rate limits on every node (default off: the tier's own tests send more than a minute's quota). */
  rateLimits?: boolean;
}

const stopProcess = async (p: { child: ChildProcess; exited: Promise<unknown> } | null): Promise<void> => {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGKILL');
  await p.exited;
};

/** Starts the authority, the followers and HAProxy, and waits until HAProxy sees every follower up. */
export async function startReadTier(o: ReadTierOptions): Promise<ReadTier> {
  const tmp = tempDir('ombra-tier-');
  const started: { child: ChildProcess; exited: Promise<unknown> }[] = [];
  const stop = async () => {
    await Promise.all(started.map(stopProcess));
    tmp.cleanup();
  };
  try {
    const made = await runCli(['testnet', '--nodes', '1', '--out', tmp.dir, '--block-time-ms', String(o.blockTimeMs ?? 300)]);
    if (made.code !== 0) throw new Error(`ombra testnet failed: ${made.stderr}`);
    const genesisFile = join(tmp.dir, 'genesis.json');
    // The tier's secrets, as deploy/read-tier.sh makes them: files only the nodes' user reads.
    const [tokenFile, secretFile] = [join(tmp.dir, 'proxy.token'), join(tmp.dir, 'api-key.secret')];
    writeFileSync(tokenFile, `${PROXY_TOKEN}\n`, { mode: 0o600 });
    writeFileSync(secretFile, `${API_KEY_SECRET}\n`, { mode: 0o600 });
    const common = [
      '--genesis',
      genesisFile,
      '--rate-limits',
      o.rateLimits ? 'on' : 'off',
      '--api-key-secret-file',
      secretFile,
      ...(o.nodeArgs ?? []),
    ];
    // Followers believe the balancer's X-Forwarded-For only with its token.
    const behindProxy = ['--trusted-proxy', '127.0.0.1', '--trusted-proxy-token-file', tokenFile];
    const authority = await startNodeProcess(
      [...common, '--key-file', join(tmp.dir, 'node0', 'key.json'), '--data-dir', join(tmp.dir, 'authority')],
      {},
      START_MS,
    );
    started.push(authority);
    const network = (await (await fetch(`${authority.url}/api/chain/network`)).json()) as { addresses: string[] };
    const peer = network.addresses.find((a) => a.includes('/p2p/'));
    if (!peer) throw new Error('the authority announced no p2p address');
    const followers: (NodeProcess | null)[] = [];
    for (let i = 0; i < o.followers; i++) {
      const f = await startNodeProcess(
        [...common, ...behindProxy, '--data-dir', join(tmp.dir, `follower${i + 1}`), '--peer', peer, ...(o.followerArgs?.(i) ?? [])],
        {},
        START_MS,
      );
      started.push(f);
      followers.push(f);
    }
    const lb = await startHaproxy(
      tmp.dir,
      followers.map((f) => f?.url ?? ''),
    );
    started.push(lb);
    return {
      authority,
      followers,
      url: lb.url,
      haproxyPid: lb.child.pid ?? -1,
      genesisFile,
      serverStatus: lb.serverStatus,
      async kill(i) {
        await stopProcess(followers[i]);
        followers[i] = null;
      },
      async balancer(which) {
        const b = await startHaproxy(
          tmp.dir,
          which.map((i) => followers[i]?.url ?? ''),
        );
        started.push(b);
        return b;
      },
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
