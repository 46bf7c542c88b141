/**
 * `npm run e2e -- ...`: run a manifest (`--manifest FILE [--seed N] [--minutes M] [--out DIR]`),
 * `generate --seed N [--minutes M]` (print a random manifest), or `check DIR` (check a run's
 * history again). A run ends with the check and exits 1 on any FAIL.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkRun } from './check/checkRun.ts';
import { generateToml } from './generate.ts';
import { ManifestError, parseManifest } from './manifest.ts';
import { runManifest } from './runner.ts';
import { errorMessage } from '../core/errors.ts';

const USAGE = `usage:
  npm run e2e -- --manifest e2e/networks/NAME.toml [--seed N] [--minutes M] [--out DIR]
  npm run e2e -- generate --seed N [--minutes M]
  npm run e2e -- check DIR`;

/** Runs the e2e command line; answers the exit code. */
export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      manifest: { type: 'string' },
      seed: { type: 'string' },
      minutes: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const int = (v: string | undefined, name: string): number | undefined => {
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new ManifestError([`--${name} must be a non-negative integer`]);
    return Number(v);
  };
  const minutes = int(values.minutes, 'minutes');
  if (positionals[0] === 'generate') {
    process.stdout.write(generateToml(int(values.seed, 'seed') ?? Date.now() % 2 ** 31, minutes === undefined ? undefined : minutes * 60));
    return 0;
  }
  if (positionals[0] === 'check') {
    if (!positionals[1]) throw new ManifestError(['check needs the run directory']);
    return report(positionals[1]);
  }
  if (positionals.length) throw new ManifestError([`unexpected argument ${positionals[0]}\n${USAGE}`]);
  if (!values.manifest) throw new ManifestError([`--manifest is required\n${USAGE}`]);
  const file = values.manifest;
  const m = parseManifest(readFileSync(file, 'utf8'), file.endsWith('.json') ? 'json' : 'toml');
  const seed = int(values.seed, 'seed');
  if (seed !== undefined) m.seed = seed;
  if (minutes !== undefined) m.durationS = Math.max(10, minutes * 60 - m.settleS);
  const out = values.out ?? join(tmpdir(), 'ombra-e2e', `${m.name}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const started = Date.now();
  await runManifest(m, out, (line) => process.stdout.write(`[e2e ${((Date.now() - started) / 1000).toFixed(0)}s] ${line}\n`));
  process.stdout.write(`run took ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  return report(out);
}

/** Checks a run directory, writes report.md beside its history and prints it; 1 on any FAIL. */
function report(dir: string): number {
  const r = checkRun(dir);
  writeFileSync(join(dir, 'report.md'), r.markdown);
  process.stdout.write(`${r.markdown}\nreport: ${join(dir, 'report.md')}\n`);
  return r.failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof ManifestError || !(e instanceof Error) ? errorMessage(e) : (e.stack ?? e.message)}\n`);
    process.exit(e instanceof ManifestError ? 2 : 1);
  },
);
