/**
 * `ombra audit FILE | --data-dir DIR`: the command over the audit itself (node/verification/audit.ts): flags,
 * signature workers, and the verdict printed as `OK: ...` or `FAULT at height H: ...`.
 */
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { errorCode, errorMessage } from '../core/errors.ts';
import { flagSpecs, helpText, parseFlags, UsageError } from './args.ts';
import { auditSnapshot, auditStore, type AuditResult } from '../node/verification/audit.ts';
import { openExistingStore, withDataDir } from '../launch/dataDir.ts';
import { forkOverridesFromEnv } from './forks.ts';
import { progress } from './progress.ts';

const AUDIT_FLAGS = flagSpecs({
  'data-dir': {
    type: 'string',
    env: 'OMBRA_AUDIT_DATA_DIR',
    help: "audit a stopped node's own block log instead of a FILE (and that its head pointer names the last block)",
  },
  workers: {
    type: 'string',
    env: 'OMBRA_AUDIT_WORKERS',
    default: 'auto',
    help: 'signature-verifying worker threads: a number (0 = inline) or auto (one per core, up to 8, for files of 8 MiB and more)',
  },
});

const USAGE = 'ombra audit FILE | --data-dir DIR [--workers N|auto]';
const SUMMARY =
  "Re-verifies a snapshot (`ombra snapshot export`), or a stopped node's own log, from genesis with the consensus rules:\n" +
  'prints `OK: N blocks, M transactions, head <hash>` and exits 0, or `FAULT at height H: <why>` and exits 1.\n' +
  'Fork heights follow OMBRA_FORK_HEIGHT and OMBRA_FORK_HEIGHT_V3.._V7 when set.';

/** Help for `ombra audit`. */
export const auditHelp = () => helpText(USAGE, SUMMARY, AUDIT_FLAGS);

/** Files from this size up get signature workers under `--workers auto`. */
const AUTO_WORKERS_FROM_BYTES = 8 << 20;

/** Runs `ombra audit FILE` or `ombra audit --data-dir DIR`. */
export async function auditCommand(argv: string[]): Promise<number> {
  const { flags, positionals } = parseFlags(argv, AUDIT_FLAGS);
  const dataDir = flags['data-dir'];
  if (dataDir !== undefined) {
    if (positionals.length) throw new UsageError('give either FILE or --data-dir DIR, not both');
    return withDataDir(
      'audit',
      () => openExistingStore(dataDir),
      async (store) =>
        report(
          await auditStore(store, {
            forkOverrides: forkOverridesFromEnv(),
            workers: workersFlag(flags.workers, (store.head()?.index ?? 0) >= 10_000),
          }),
          false,
        ),
    );
  }
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? `unexpected argument ${positionals[1]}` : 'FILE or --data-dir DIR is required');
  const file = positionals[0];
  const overrides = forkOverridesFromEnv();
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (e) {
    process.stderr.write(`ombra audit: cannot read ${file}: ${errorCode(e) ?? errorMessage(e)}\n`);
    return 1;
  }
  const workers = workersFlag(flags.workers, size >= AUTO_WORKERS_FROM_BYTES);
  const started = Date.now();
  const bar = progress('audit', size, { unit: 'bytes' });
  let result: AuditResult;
  try {
    result = await auditSnapshot(file, { forkOverrides: overrides, workers, onProgress: (b, t) => bar.update(b, t) });
  } finally {
    bar.stop();
  }
  const seconds = (Date.now() - started) / 1000;
  const code = report(result, true);
  if (code === 0)
    process.stderr.write(`audited ${size} bytes in ${seconds.toFixed(1)} s${workers ? ` with ${workers} signature workers` : ''}\n`);
  return code;
}

/** `--workers`: a number, or auto (one per core up to 8 when the input is `big`). */
function workersFlag(w: string, big: boolean): number {
  if (w === 'auto') return big && availableParallelism() > 1 ? Math.min(8, availableParallelism()) : 0;
  if (/^[0-9]{1,2}$/.test(w) && Number(w) <= 64) return Number(w);
  throw new UsageError('--workers must be auto or an integer 0..64');
}

/** Prints the verdict: `OK: ...` (exit 0) or `FAULT at height H: ...` (exit 1; a file's line named). */
function report(result: AuditResult, fromFile: boolean): number {
  if (!result.ok) {
    process.stdout.write(`FAULT at height ${result.height}: ${result.message}${fromFile ? ` (line ${result.line})` : ''}\n`);
    return 1;
  }
  process.stdout.write(`OK: ${result.blocks} blocks, ${result.transactions} transactions, head ${result.head}\n`);
  return 0;
}
