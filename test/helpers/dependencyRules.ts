/** Runs dependency-cruiser with the repository's rules (.dependency-cruiser.cjs) and lists what it finds. */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The layers, bottom to top, as the rules name them (`layer-<name>`; `explorer` is api/explorer/). */
export async function layers(): Promise<string[]> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  return (options.ruleSet?.forbidden ?? []).flatMap((r) => (r.name?.startsWith('layer-') ? [r.name.slice('layer-'.length)] : []));
}

/**
 * The layers' top-level folders, bottom to top: every layer but the explorer, which is inside
 * api/ (`folderOf` in .dependency-cruiser.cjs). A layer added there is counted here too.
 */
export async function layerFolders(): Promise<string[]> {
  return (await layers()).filter((l) => l !== 'explorer');
}

/**
 * The violations under `roots` (folders relative to `baseDir`, the repository by default), one
 * line each: `rule: from -> to` (a circle: every file around it).
 */
export async function dependencyViolations(roots: readonly string[], baseDir = ROOT): Promise<string[]> {
  const options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.cjs'));
  // Loaded here, not at the top: the layer list above is read without it (test/helpers/assertionCount.ts).
  const { cruise } = await import('dependency-cruiser');
  const { output } = await cruise(
    [...roots],
    { ...options, baseDir, outputType: 'json' },
    {},
    {
      tsConfig: extractTSConfig(join(ROOT, 'tsconfig.json')),
    },
  );
  const result: ICruiseResult = typeof output === 'string' ? JSON.parse(output) : output;
  return result.summary.violations.map((v) => `${v.rule.name}: ${[v.from, ...(v.cycle?.map((c) => c.name) ?? [v.to])].join(' -> ')}`);
}
