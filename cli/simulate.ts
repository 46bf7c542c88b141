/** `ombra simulate`: drives a running node with realistic traffic of every executed type. */
import { DEV_MNEMONIC, keyPairFromMnemonic } from '../core/keys.ts';
import { flagSpecs, API_KEY_FLAG, apiKeyFlag, helpText, requiredIntFlag, parseFlags, UsageError, URL_FLAG } from './args.ts';
import { SimClient } from '../simulator/simClient.ts';
import { Simulator } from '../simulator/simulator.ts';
import { progressLine, summaryTable } from './simReport.ts';
import { errorMessage } from '../core/errors.ts';

/** How often a progress line is printed (stderr). */
const LINE_EVERY_MS = 5000;

const FLAGS = flagSpecs({
  url: URL_FLAG,
  'api-key': API_KEY_FLAG,
  seconds: { type: 'string', env: 'OMBRA_SIM_SECONDS', default: '30', help: 'how long to run' },
  seed: { type: 'string', env: 'OMBRA_SIM_SEED', default: '7777', help: 'seed of the traffic mix' },
  json: { type: 'boolean', help: 'print the summary as JSON' },
});

const USAGE = 'ombra simulate [--url URL] [--api-key KEY] [--seconds S] [--seed N] [--json]';
const SUMMARY =
  "Drives a running node with a realistic, seeded mix of traffic from the dev mnemonic's accounts:\n" +
  'transfers; miners (indexes 2-4) registering and answering tasks with deterministic outputs; the\n' +
  'authority (index 0) validating and rewarding; art mints of nft_svg answers; agent runs with steps,\n' +
  'cancellations and failures; chat turns; social posts, profiles, follows, reactions, funded likes,\n' +
  'direct messages and blobs; image and audio mints of real sample files; a web drive with releases.\n' +
  'Features of inactive forks are skipped. When the node goes away mid-run (restarted, paused), it waits\n' +
  'for it, retrying with backoff (a line on stderr when it goes and when it is back), until --seconds are up.';

/** Help for `ombra simulate`. */
export const simulateHelp = () => helpText(USAGE, SUMMARY, FLAGS);

/** Runs `ombra simulate`. */
export async function simulateCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, FLAGS);
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals[0]}`);
  const seconds = requiredIntFlag(flags, 'seconds', 1, 86_400);
  const seed = requiredIntFlag(flags, 'seed', 0, 2 ** 31 - 1);
  const keys = Array.from({ length: 10 }, (_, i) => keyPairFromMnemonic(DEV_MNEMONIC, i));
  const client = new SimClient(flags.url, keys, apiKeyFlag(flags));
  try {
    await client.get('/api/health');
  } catch (e) {
    // The client's message already names the node and the URL: said once.
    const why = errorMessage(e);
    process.stderr.write(`ombra simulate: ${why.startsWith('cannot reach') ? why : `cannot reach the node at ${flags.url}: ${why}`}\n`);
    return 1;
  }
  // The run's start height is mixed into the seed: a second run on the same chain makes new names
  // and ids (no collisions with the first run's), and the same chain state still gives the same mix.
  const height = (await client.get<{ height: number }>('/api/chain/height'))?.height ?? 0;
  const sim = new Simulator(client, (seed ^ Math.imul(height + 1, 0x9e3779b1)) >>> 0, (line) =>
    process.stderr.write(`ombra simulate: ${line}\n`),
  );
  process.stderr.write(`simulating for ${seconds} s against ${flags.url} (seed ${seed}, from height ${height})\n`);
  const started = Date.now();
  const ticker = setInterval(() => process.stderr.write(`${progressLine(client.counts, Date.now() - started)}\n`), LINE_EVERY_MS);
  try {
    await sim.run(started + seconds * 1000);
  } finally {
    clearInterval(ticker);
  }
  const elapsed = Date.now() - started;
  const summary = { sent: client.counts.sent, refused: client.counts.refused, outages: sim.outages, notes: sim.log.slice(-20) };
  if (flags.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
  else {
    process.stdout.write(`${summaryTable(client.counts, elapsed)}\n`);
    if (sim.log.length)
      process.stderr.write(
        `last refusals:\n${sim.log
          .slice(-5)
          .map((l) => `  ${l.slice(0, 200)}`)
          .join('\n')}\n`,
      );
  }
  return 0;
}
