/** `ombra testnet`: a genesis with N authorities (dev mnemonic indexes 0..N-1) and their key files. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_MNEMONIC, keyPairFromMnemonic } from '../core/keys.ts';
import type { Genesis } from '../core/genesis.ts';
import { loadOrCreatePeerKey } from '../p2p/identity.ts';
import { flagSpecs, helpText, intFlag, requiredIntFlag, parseFlags, UsageError } from './args.ts';

const FLAGS = flagSpecs({
  nodes: { type: 'string', env: 'OMBRA_TESTNET_NODES', help: 'number of authorities (1-10)' },
  out: { type: 'string', env: 'OMBRA_TESTNET_OUT', help: 'output directory' },
  'block-time-ms': { type: 'string', env: 'OMBRA_BLOCK_TIME_MS', default: '15000', help: 'slot length written into the genesis' },
  'chain-id': { type: 'string', env: 'OMBRA_CHAIN_ID', default: 'ombra-testnet', help: 'chain id' },
  'port-base': {
    type: 'string',
    env: 'OMBRA_TESTNET_PORT_BASE',
    default: '7777',
    help: 'the printed commands use HTTP port BASE+2i and p2p port BASE+2i+1 for node i',
  },
});

const USAGE = 'ombra testnet --nodes N --out DIR [--block-time-ms MS] [--port-base P]';
const SUMMARY =
  'Writes DIR/genesis.json with N authorities (dev mnemonic indexes 0..N-1, known in advance),\n' +
  'indexes 0-9 funded with 1,000,000 OMBRA each, every fork at 0 (fork 7 too: claims pay), and\n' +
  'DIR/node<i>/key.json per node, and prints the start command of each node (`npx ombra ...`, to paste as\n' +
  'they are): distinct HTTP, p2p and metrics ports on this machine (node i: HTTP BASE+2i, p2p BASE+2i+1,\n' +
  'metrics 9464+i), every node after the first dialling node 0, whose p2p identity is created in its data\n' +
  'dir now so its address is known.';

/** Help for `ombra testnet`. */
export const testnetHelp = () => helpText(USAGE, SUMMARY, FLAGS);

/** The genesis of an N-authority test network. */
export function testnetGenesis(n: number, blockTimeMs: number, chainId: string, timestamp: number): Genesis {
  const keys = Array.from({ length: 10 }, (_, i) => keyPairFromMnemonic(DEV_MNEMONIC, i));
  return {
    chainId,
    timestamp,
    blockTimeMs,
    authorities: keys.slice(0, n).map((k) => k.address),
    allocations: Object.fromEntries(keys.map((k) => [k.address, '1000000000000'])),
    blockReward: '50000000',
    // Fork 7 from genesis: a test network is reachable by others, and free claims let any funded key squat every name.
    forks: { 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 7: 0 },
  };
}

/** Runs `ombra testnet`. */
export async function testnetCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const n = intFlag(flags, 'nodes', 1, 10);
  if (n === undefined) throw new UsageError('--nodes is required');
  if (typeof flags.out !== 'string') throw new UsageError('--out is required');
  const blockTimeMs = requiredIntFlag(flags, 'block-time-ms', 100, 3_600_000);
  const base = requiredIntFlag(flags, 'port-base', 1, 65_535 - 20);
  const chainId = flags['chain-id'];
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(chainId)) throw new UsageError('--chain-id must be 1-64 of [A-Za-z0-9_.-]');
  const out = flags.out;
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'genesis.json'), `${JSON.stringify(testnetGenesis(n, blockTimeMs, chainId, Date.now()), null, 2)}\n`);
  for (let i = 0; i < n; i++) {
    mkdirSync(join(out, `node${i}`), { recursive: true });
    writeFileSync(
      join(out, `node${i}`, 'key.json'),
      `${JSON.stringify({ privateKey: keyPairFromMnemonic(DEV_MNEMONIC, i).privateKey })}\n`,
      { mode: 0o600 },
    );
  }
  process.stdout.write(`wrote ${join(out, 'genesis.json')} (${n} authorities, ${blockTimeMs} ms slots) and ${n} key files\n`);
  // Node 0's identity is made now (kept in its data dir, as a start would), so the others' --peer is a literal.
  const peer0 = (await loadOrCreatePeerKey(join(out, 'node0', 'data'))).publicKey.toString();
  process.stdout.write(`start each node in its own terminal:\n${startCommands(out, n, peer0, base).join('\n')}\n`);
  return 0;
}

/**
 * The start command of each node of a test network in `out`, with HTTP, p2p and metrics ports
 * that do not collide on one machine; every node after the first dials node 0 (peer id `peer0`).
 */
function startCommands(out: string, n: number, peer0: string, base: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const args = [
      `npx ombra start --genesis ${join(out, 'genesis.json')} --key-file ${join(out, `node${i}`, 'key.json')}`,
      `--data-dir ${join(out, `node${i}`, 'data')} --http-port ${base + 2 * i} --p2p-port ${base + 1 + 2 * i}`,
      `--metrics-addr 127.0.0.1:${9464 + i}`,
    ];
    if (i > 0) args.push(`--peer /ip4/127.0.0.1/tcp/${base + 1}/p2p/${peer0}`);
    return `  ${args.join(' ')}`;
  });
}
