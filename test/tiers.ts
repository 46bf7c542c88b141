/**
 * `npm test` and `npm run test:<tier>`: Node's own test runner (`node --test`) over the tiers,
 * `test/unit` (pure), `test/integration` (in-process: LevelDB, `app.request`), `test/system`
 * (processes, p2p, crashes, deploy, PostgreSQL) and `test/browser` (Chromium).
 *
 *   node test/tiers.ts [unit|integration|system|browser ...] [path-filter ...]
 *
 * With no tier, all four; a filter keeps the files whose path contains it. Files run in
 * `OMBRA_TEST_JOBS` processes at once (default: cores + 2, at most 6): many files spend most of
 * their time waiting on real timers, sockets and slots: at three the whole run used 1.4 of two
 * cores (337 s wall, 463 CPU s), so two more than the cores keep both busy. Each file is its own process. Not
 * `--test-force-exit`: it ends a file's process before the process has written out its last test
 * events, so a file's last tests went missing from the counts (18 of 46 in a run of two files).
 */
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TIERS = ['unit', 'integration', 'system', 'browser'] as const;
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const tiers = args.filter((a): a is (typeof TIERS)[number] => (TIERS as readonly string[]).includes(a));
const filters = args.filter((a) => !tiers.some((t) => t === a));
// Files known to run long start first, so the run's tail is made of short files (the browser
// file alone takes a minute and a half).
const LONG = /browser|crash|simulate|drainingPeer|sink|scale|alertDelivery|writeFuzz|hostile|flood|prism|readTier|storeDamage/i;
const all = (tiers.length ? tiers : TIERS)
  .flatMap((tier) => globSync(`test/${tier}/**/*.test.ts`, { cwd: root }).sort())
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)));
const files = [...all.filter((f) => LONG.test(f)), ...all.filter((f) => !LONG.test(f))];
if (files.length === 0) {
  console.error(`no test file matches ${args.join(' ')}`);
  process.exit(1);
}
/** `env` with NODE_COMPILE_CACHE set to Node's default place, unless it names or disables one. */
function withCompileCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return env;
  return { ...env, NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') };
}
const jobs = Number(process.env.OMBRA_TEST_JOBS ?? Math.min(availableParallelism() + 2, 6));
const run = spawnSync(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${jobs}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./test/helpers/tierReporter.ts',
    '--test-reporter-destination=stderr',
    ...files,
  ],
  // Node's compile cache for every test process (and the workers and nodes they start): each file
  // is a process of its own, and most load the same modules.
  { cwd: root, stdio: 'inherit', env: withCompileCache(process.env) },
);
process.exit(run.status ?? 1);
