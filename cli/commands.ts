/** The command table of `ombra`. */
import { auditCommand, auditHelp } from './auditCommand.ts';
import { driveCommand, driveHelp } from './drive.ts';
import { replayCommand, replayHelp } from './replay.ts';
import { repairCommand, repairHelp } from './repair.ts';
import { snapshotCommand, snapshotHelp } from './snapshot.ts';
import { simulateCommand, simulateHelp } from './simulate.ts';
import { startCommand } from './start.ts';
import { startHelp } from './startFlags.ts';
import { testnetCommand, testnetHelp } from './testnet.ts';
import { walletCommand, walletHelp } from './wallet.ts';
import { tailCommand, tailHelp } from './tail.ts';
import { keysCommand, keysHelp } from './keys.ts';
import { peersCommand, peersHelp } from './peers.ts';

/** A CLI command. */
export interface Command {
  summary: string;
  help(argv: string[]): string;
  run(argv: string[]): Promise<number>;
}

/** Every command, by name. */
export const COMMANDS: Record<string, Command> = {
  start: { summary: 'run a node (dev or network)', help: startHelp, run: startCommand },
  testnet: { summary: 'write a genesis with N authorities and their key files', help: testnetHelp, run: testnetCommand },
  replay: { summary: 'rebuild every read model from genesis, with progress', help: replayHelp, run: replayCommand },
  repair: {
    summary: 'truncate a damaged block log to its last verified block and rebuild the read models',
    help: repairHelp,
    run: repairCommand,
  },
  snapshot: {
    summary: 'export the block log as NDJSON (snapshot export) or write a checkpoint (snapshot state)',
    help: snapshotHelp,
    run: snapshotCommand,
  },
  audit: { summary: 're-verify a snapshot file from genesis', help: auditHelp, run: auditCommand },
  wallet: { summary: 'mnemonics, addresses, signed transfers (wallet new | address | send)', help: walletHelp, run: walletCommand },
  drive: { summary: 'publish a folder to an on-chain web drive (drive push)', help: driveHelp, run: driveCommand },
  tail: { summary: 'print live chain events (SSE), reconnecting and resuming', help: tailHelp, run: tailCommand },
  simulate: { summary: 'drive a running node with realistic traffic of every transaction type', help: simulateHelp, run: simulateCommand },
  keys: { summary: 'API keys of a running or stopped node (keys create | list | revoke)', help: keysHelp, run: keysCommand },
  peers: { summary: "a running node's peer id, addresses and connected peers", help: peersHelp, run: peersCommand },
};
