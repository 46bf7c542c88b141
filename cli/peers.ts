/** `ombra peers --data-dir DIR [--json]`: the p2p peers of the node running on DIR (through its admin socket). */
import { resolve } from 'node:path';
import { adminJson } from './adminClient.ts';
import { flagSpecs, helpText, parseFlags, UsageError } from './args.ts';
import { CliFault } from '../launch/dataDir.ts';

const PEERS_FLAGS = flagSpecs({
  'data-dir': { type: 'string', env: 'OMBRA_DATA_DIR', help: 'data directory of the running node' },
  json: { type: 'boolean', help: 'print JSON' },
});

const USAGE = 'ombra peers --data-dir DIR [--json]';
const SUMMARY = "Prints the running node's peer id, listen addresses and connected peers (through DIR/admin.sock).";

/** Help for `ombra peers`. */
export const peersHelp = () => helpText(USAGE, SUMMARY, PEERS_FLAGS);

type PeersView = { peerId: string | null; addresses: string[]; syncing: boolean; peers: { peerId: string; addresses: string[] }[] };

/** Runs `ombra peers`. */
export async function peersCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, PEERS_FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const dataDir = flags['data-dir'];
  if (!dataDir) throw new UsageError('--data-dir is required');
  let view: PeersView | null;
  try {
    view = await adminJson<PeersView>(dataDir, 'GET', '/admin/peers');
    // Peers exist only in a running node's memory: a stopped data dir has none to show.
    if (!view) throw new CliFault(`no node is running on ${resolve(dataDir)} (peers are known only to a running node)`);
  } catch (e) {
    if (!(e instanceof CliFault)) throw e;
    process.stderr.write(`ombra peers: ${e.message}\n`);
    return 1;
  }
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(view)}\n`);
    return 0;
  }
  process.stdout.write(`peer id:   ${view.peerId ?? '(no p2p)'}\n`);
  for (const a of view.addresses) process.stdout.write(`listening: ${a}\n`);
  process.stdout.write(`peers:     ${view.peers.length}${view.syncing ? ' (syncing)' : ''}\n`);
  for (const p of view.peers) process.stdout.write(`  ${p.peerId}  ${p.addresses.join(' ')}\n`);
  return 0;
}
