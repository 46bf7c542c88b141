/**
 * Redocly CLI (`redocly lint`, @redocly/cli) on an OpenAPI document, as a child process: its
 * problems as JSON, by rule. No telemetry and no update check (a test must not reach the network).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One problem Redocly reports. */
export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  /** Where, as a JSON pointer into the document. */
  pointer: string;
}

/** Redocly's CLI script, or null where the package is not installed. */
function redoclyBin(): string | null {
  let pkg: string;
  try {
    pkg = fileURLToPath(import.meta.resolve('@redocly/cli/package.json'));
  } catch {
    return null;
  }
  const bin = pkg.replace(/package\.json$/, 'bin/cli.js');
  return existsSync(bin) ? bin : null;
}

/** Lints `doc` with the config file `config`; null when Redocly is not installed. */
export function redoclyLint(doc: unknown, config: string): LintProblem[] | null {
  const bin = redoclyBin();
  if (!bin) return null;
  const dir = mkdtempSync(join(tmpdir(), 'ombra-redocly-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const run = spawnSync(process.execPath, [bin, 'lint', file, '--config', config, '--format', 'json', '--max-problems', '100000'], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
    // Exit 1 with problems listed is a finding, not a failure to run; anything else is.
    const out = run.stdout.slice(run.stdout.indexOf('{'));
    if (run.status !== 0 && run.status !== 1) throw new Error(`redocly lint exited ${run.status}: ${run.stderr}`);
    const report = JSON.parse(out) as {
      problems: { ruleId: string; severity: 'error' | 'warn'; message: string; location: { pointer: string }[] }[];
    };
    return report.problems.map((p) => ({
      ruleId: p.ruleId,
      severity: p.severity,
      message: p.message,
      pointer: p.location[0]?.pointer ?? '',
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Lints `doc` with Redocly's recommended rules alone (a config written for the run). */
export function redoclyRecommended(doc: unknown): LintProblem[] | null {
  const dir = mkdtempSync(join(tmpdir(), 'ombra-redocly-config-'));
  try {
    const config = join(dir, 'redocly.yaml');
    writeFileSync(config, 'extends:\n  - recommended\n');
    return redoclyLint(doc, config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
