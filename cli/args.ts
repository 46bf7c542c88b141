/**
 * Flag parsing shared by every command: Node's `util.parseArgs` reads `--flag value`,
 * `--flag=value`, booleans and repeated flags; around it sit what it does not know: each flag's
 * environment twin, `--flag=false` for a boolean, a value starting with one dash, and the
 * one-line usage errors (`unknown flag --x`, `--x needs a value`).
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** A flag definition. */
export interface FlagSpec {
  readonly type: 'string' | 'boolean';
  /** Environment variable twin, e.g. OMBRA_HTTP_PORT. */
  readonly env?: string;
  readonly multiple?: boolean;
  readonly help: string;
  readonly default?: string | boolean;
}

/** The flag specs of one command, by name. */
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** One flag's value as its spec makes it: a boolean, a string, or every string given. */
type FlagValue<S extends FlagSpec> = S['type'] extends 'boolean' ? boolean : S extends { multiple: true } ? string[] : string;

/** Parsed flags, typed by their specs: a flag with a default always has a value. */
export type Flags<S extends FlagSpecs = FlagSpecs> = {
  readonly [K in keyof S]: S[K] extends { default: string | boolean } ? FlagValue<S[K]> : FlagValue<S[K]> | undefined;
};

/** Declares a command's flags, keeping each spec's literal type so `Flags<typeof X>` knows them. */
export const flagSpecs = <const S extends FlagSpecs>(specs: S): S => specs;

/** A usage error: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/** The spellings of false for a boolean flag or its environment twin. */
const FALSE = ['false', '0', 'off', 'no'];

/** A flag's value when the command line does not give it: its environment twin, else its default. */
function fallback(spec: FlagSpec, env: NodeJS.ProcessEnv): string | boolean | string[] | undefined {
  const fromEnv = spec.env ? env[spec.env] : undefined;
  if (fromEnv === undefined || fromEnv === '') return spec.multiple && typeof spec.default === 'string' ? [spec.default] : spec.default;
  if (spec.type === 'boolean') return !FALSE.includes(fromEnv);
  if (!spec.multiple) return fromEnv;
  return fromEnv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * The arguments in the spellings parseArgs takes, and the booleans given a value: parseArgs
 * refuses `--bool=off`, so a boolean goes to it bare and its last value is kept here; `--name -5`
 * becomes `--name=-5` (parseArgs takes a dash for a flag). A flag no spec names is refused here,
 * in the order given.
 */
function normalized(argv: readonly string[], specs: FlagSpecs): { args: string[]; booleans: Map<string, boolean> } {
  const args: string[] = [];
  const booleans = new Map<string, boolean>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--') || arg === '--') {
      args.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) throw new UsageError(`unknown flag --${name}`);
    const next = argv[i + 1];
    if (spec.type === 'boolean') {
      booleans.set(name, eq < 0 || !FALSE.includes(arg.slice(eq + 1)));
      args.push(`--${name}`);
    } else if (eq < 0 && next !== undefined && next.startsWith('-') && !next.startsWith('--')) {
      args.push(`--${name}=${next}`);
      i++;
    } else args.push(arg);
  }
  return { args, booleans };
}

/** Parses argv against specs, falling back to environment twins, then defaults. */
export function parseFlags<const S extends FlagSpecs>(
  argv: readonly string[],
  specs: S,
  env: NodeJS.ProcessEnv = process.env,
): { flags: Flags<S>; positionals: string[] } {
  const options: ParseArgsOptionsConfig = {};
  for (const [name, spec] of Object.entries(specs)) {
    const value = fallback(spec, env);
    options[name] = { type: spec.type, multiple: spec.multiple ?? false, ...(value === undefined ? {} : { default: value }) };
  }
  const { args, booleans } = normalized(argv, specs);
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true });
    for (const [name, value] of booleans) values[name] = value;
    // parseArgs types its values by the options object, built at run time from `specs`: the same keys and kinds.
    return { flags: values as Flags<S>, positionals };
  } catch (e) {
    const code = e instanceof Error && 'code' in e ? e.code : undefined;
    const flag = e instanceof Error ? (/'(-[^' ]*)/.exec(e.message)?.[1] ?? '') : '';
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`${flag} needs a value`);
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown flag ${flag}`);
    throw e;
  }
}

/** An integer flag within bounds. */
export function intFlag(flags: Readonly<Record<string, unknown>>, name: string, min: number, max: number): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new UsageError(`--${name} must be an integer ${min}..${max}`);
  return Number(v);
}

/** An integer flag within bounds that must have a value (given, or its spec's default). */
export function requiredIntFlag(flags: Readonly<Record<string, unknown>>, name: string, min: number, max: number): number {
  const v = intFlag(flags, name, min, max);
  if (v === undefined) throw new UsageError(`--${name} is required`);
  return v;
}

/** Help text for a command. */
export function helpText(usage: string, summary: string, specs: FlagSpecs): string {
  const lines = Object.entries(specs).map(([n, s]) => {
    const left = `  --${n}${s.type === 'string' ? ' VALUE' : ''}`;
    const extra = [s.env ? `env ${s.env}` : '', s.default !== undefined ? `default ${s.default}` : ''].filter(Boolean).join(', ');
    return `${left.padEnd(30)} ${s.help}${extra ? ` (${extra})` : ''}`;
  });
  return `Usage: ${usage}\n\n${summary}\n\nOptions:\n${lines.join('\n')}\n  --help                       show this help\n`;
}

/** --url, shared by the commands that talk to a running node. */
export const URL_FLAG = {
  type: 'string',
  env: 'OMBRA_URL',
  default: 'http://127.0.0.1:7777',
  help: "the node's HTTP API",
} as const satisfies FlagSpec;

/** --api-key, beside --url on every command that calls a node: sent as X-API-Key (DESIGN.md §4). */
export const API_KEY_FLAG = {
  type: 'string',
  env: 'OMBRA_API_KEY',
  help: "an API key for the node (sent as X-API-Key: its tier's rate limits instead of the anonymous ones)",
} as const satisfies FlagSpec;

/** The --api-key flag's value, when one was given (flag or OMBRA_API_KEY). */
export function apiKeyFlag(flags: Readonly<Record<string, unknown>>): string | undefined {
  const v = flags['api-key'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(v))
    throw new UsageError('--api-key must be 1-256 printable characters without spaces');
  return v;
}
