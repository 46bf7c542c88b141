/**
 * The command table of `ombra`. Each command's module is loaded only when that command runs or
 * shows its help, so `ombra wallet address` does not load the node, libp2p and the API (~1 s of
 * CPU a start here) that only `ombra start` needs.
 */

/** A CLI command. */
export interface Command {
  summary: string;
  help(argv: string[]): Promise<string>;
  run(argv: string[]): Promise<number>;
}

/** What a command's module gives: its help text and what it runs. */
interface Loaded {
  help(argv: string[]): string;
  run(argv: string[]): Promise<number>;
}

/** A command whose module `load` brings in when it is first used. */
const lazy = <M>(summary: string, load: () => Promise<M>, pick: (m: M) => Loaded): Command => ({
  summary,
  help: async (a) => pick(await load()).help(a),
  run: async (a) => pick(await load()).run(a),
});

/** Every command, by name. */
export const COMMANDS: Record<string, Command> = {
  start: {
    summary: 'run a node (dev or network)',
    // Its help is in the flag table: `start --help` loads no more than that.
    help: async () => (await import('./start/startFlags.ts')).startHelp(),
    run: async (a) => (await import('./start/start.ts')).startCommand(a),
  },
  testnet: lazy(
    'write a genesis with N authorities and their key files',
    () => import('./testnet.ts'),
    (m) => ({ help: m.testnetHelp, run: m.testnetCommand }),
  ),
  replay: lazy(
    'rebuild every read model from genesis, with progress',
    () => import('./replay.ts'),
    (m) => ({ help: m.replayHelp, run: m.replayCommand }),
  ),
  repair: lazy(
    'truncate a damaged block log to its last verified block and rebuild the read models',
    () => import('./repair.ts'),
    (m) => ({ help: m.repairHelp, run: m.repairCommand }),
  ),
  snapshot: lazy(
    'export the block log as NDJSON (snapshot export) or write a checkpoint (snapshot state)',
    () => import('./snapshot/snapshot.ts'),
    (m) => ({ help: m.snapshotHelp, run: m.snapshotCommand }),
  ),
  audit: lazy(
    're-verify a snapshot file from genesis',
    () => import('./auditCommand.ts'),
    (m) => ({ help: m.auditHelp, run: m.auditCommand }),
  ),
  wallet: {
    summary: 'mnemonics, addresses, signed transfers (wallet new | address | send)',
    help: async (a) => (await import('./wallet/walletFlags.ts')).walletHelp(a),
    run: async (a) => (await import('./wallet/wallet.ts')).walletCommand(a),
  },
  drive: lazy(
    'publish a folder to an on-chain web drive (drive push)',
    () => import('./drive/drive.ts'),
    (m) => ({ help: m.driveHelp, run: m.driveCommand }),
  ),
  sink: lazy(
    'mirror the chain into PostgreSQL (sink postgres), exactly once and reorg-safe',
    () => import('./sink.ts'),
    (m) => ({ help: m.sinkHelp, run: m.sinkCommand }),
  ),
  tail: lazy(
    'print live chain events (SSE), reconnecting and resuming',
    () => import('./tail/tail.ts'),
    (m) => ({ help: m.tailHelp, run: m.tailCommand }),
  ),
  simulate: lazy(
    'drive a running node with realistic traffic of every transaction type',
    () => import('./simulate.ts'),
    (m) => ({ help: m.simulateHelp, run: m.simulateCommand }),
  ),
  keys: lazy(
    'API keys of a running or stopped node (keys create | list | revoke)',
    () => import('./keys.ts'),
    (m) => ({ help: m.keysHelp, run: m.keysCommand }),
  ),
  peers: lazy(
    "a running node's peer id, addresses and connected peers",
    () => import('./peers.ts'),
    (m) => ({ help: m.peersHelp, run: m.peersCommand }),
  ),
};
