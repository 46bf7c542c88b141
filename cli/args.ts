/** Flag parsing shared by every command: `--flag value`, `--flag=value`, booleans, env twins. */

/** A flag definition. */
export interface FlagSpec {
  type: 'string' | 'boolean';
  /** Environment variable twin, e.g. OMBRA_HTTP_PORT. */
  env?: string;
  multiple?: boolean;
  help: string;
  default?: string | boolean;
}

/** Parsed flags. */
export type Flags = Record<string, string | boolean | string[] | undefined>;

/** A usage error: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/** Parses argv against specs, falling back to environment twins, then defaults. */
export function parseFlags(
  argv: string[],
  specs: Record<string, FlagSpec>,
  env: NodeJS.ProcessEnv = process.env,
): { flags: Flags; positionals: string[] } {
  const flags: Flags = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = specs[name];
    if (!spec) throw new UsageError(`unknown flag --${name}`);
    let value: string | boolean;
    if (spec.type === 'boolean') {
      value = eq < 0 ? true : !['false', '0', 'off', 'no'].includes(arg.slice(eq + 1));
    } else if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    if (spec.multiple) flags[name] = [...((flags[name] as string[]) ?? []), String(value)];
    else flags[name] = value;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (flags[name] !== undefined) continue;
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== '') {
      if (spec.type === 'boolean') flags[name] = !['false', '0', 'off', 'no'].includes(fromEnv);
      else
        flags[name] = spec.multiple
          ? fromEnv
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : fromEnv;
    } else if (spec.default !== undefined) flags[name] = spec.default;
  }
  return { flags, positionals };
}

/** An integer flag within bounds. */
export function intFlag(flags: Flags, name: string, min: number, max: number): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new UsageError(`--${name} must be an integer ${min}..${max}`);
  return Number(v);
}

/** An integer flag within bounds that must have a value (given, or its spec's default). */
export function requiredIntFlag(flags: Flags, name: string, min: number, max: number): number {
  const v = intFlag(flags, name, min, max);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

/** Help text for a command. */
export function helpText(usage: string, summary: string, specs: Record<string, FlagSpec>): string {
  const lines = Object.entries(specs).map(([n, s]) => {
    const left = `  --${n}${s.type === 'string' ? ' VALUE' : ''}`;
    const extra = [s.env ? `env ${s.env}` : '', s.default !== undefined ? `default ${s.default}` : ''].filter(Boolean).join(', ');
    return `${left.padEnd(30)} ${s.help}${extra ? ` (${extra})` : ''}`;
  });
  return `Usage: ${usage}\n\n${summary}\n\nOptions:\n${lines.join('\n')}\n  --help                       show this help\n`;
}

/** --url, shared by the commands that talk to a running node. */
export const URL_FLAG: FlagSpec = { type: 'string', env: 'OMBRA_URL', default: 'http://127.0.0.1:7777', help: "the node's HTTP API" };

/** --api-key, beside --url on every command that calls a node: sent as X-API-Key (DESIGN.md §4). */
export const API_KEY_FLAG: FlagSpec = {
  type: 'string',
  env: 'OMBRA_API_KEY',
  help: "an API key for the node (sent as X-API-Key: its tier's rate limits instead of the anonymous ones)",
};

/** The --api-key flag's value, when one was given (flag or OMBRA_API_KEY). */
export function apiKeyFlag(flags: Flags): string | undefined {
  const v = flags['api-key'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(v))
    throw new UsageError('--api-key must be 1-256 printable characters without spaces');
  return v;
}
