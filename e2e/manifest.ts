/**
 * The e2e manifest: the network (authorities, followers, block time), the load, the
 * perturbations and the duration, read from TOML or JSON and validated into a Manifest with
 * every problem named by its path.
 */
import { parse as parseToml } from 'smol-toml';
import { errorMessage } from '../core/errors.ts';

/** Every perturbation the runner knows. */
export const PERTURBATION_KINDS = ['kill', 'pause', 'restart', 'disconnect', 'partition', 'delay', 'drop', 'disk_full'] as const;

/** A perturbation kind. */
export type PerturbationKind = (typeof PERTURBATION_KINDS)[number];

/** Whether `k` names a perturbation kind. */
const isKind = (k: unknown): k is PerturbationKind => PERTURBATION_KINDS.some((x) => x === k);

/** One perturbation at a fixed time. */
export interface ScheduledPerturbation {
  atS: number;
  kind: PerturbationKind;
  /** Node names (a0.., f0..); empty lets the runner choose. */
  nodes: string[];
  /** How long the fault lasts (pause, cut, delay, drop, full disk; a kill's down time). */
  outageS: number;
}

/** A validated manifest (times in seconds unless named otherwise). */
export interface Manifest {
  name: string;
  authorities: number;
  followers: number;
  blockTimeMs: number;
  /** Load and perturbations run this long; then a quiet tail of settleS. */
  durationS: number;
  settleS: number;
  seed: number;
  /** Size of each node's tmpfs data dir when disk_full is in play. */
  tmpfsMb: number;
  load: { transferRate: number; simulator: boolean; sseSubscribers: number; wsSubscribers: number; webhooks: boolean };
  perturb: {
    /** Gap between random perturbations [min, max]; none when kinds is empty. */
    intervalS: [number, number];
    kinds: PerturbationKind[];
    outageS: [number, number];
    delayMs: number;
    schedule: ScheduledPerturbation[];
    /**
     * Nodes random perturbations never kill, pause, restart or fill (their links may still be cut,
     * delayed or dropped): a node that runs the whole time is what the memory invariant judges.
     */
    spare: string[];
  };
}

/** A manifest that cannot be used; `problems` names each bad field by its path. */
export class ManifestError extends Error {
  readonly code = 'INVALID_MANIFEST';
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid manifest:\n  ${problems.join('\n  ')}`);
    this.problems = problems;
  }
}

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a manifest from text: JSON when `format` is json (or the text starts with `{`), TOML otherwise. */
export function parseManifest(text: string, format: 'toml' | 'json' = text.trimStart().startsWith('{') ? 'json' : 'toml'): Manifest {
  let raw: unknown;
  try {
    raw = format === 'json' ? JSON.parse(text) : parseToml(text);
  } catch (e) {
    throw new ManifestError([`not valid ${format.toUpperCase()}: ${errorMessage(e).split('\n')[0]}`]);
  }
  return validateManifest(raw);
}

/** Checks a parsed manifest object, filling defaults; throws ManifestError naming every problem. */
export function validateManifest(raw: unknown): Manifest {
  const problems: string[] = [];
  if (!isObj(raw)) throw new ManifestError(['the manifest must be a table/object']);
  const known = (o: Raw, keys: string[], at: string) => {
    for (const k of Object.keys(o)) if (!keys.includes(k)) problems.push(`${at}${k}: unknown field (known: ${keys.join(', ')})`);
  };
  const num = (o: Raw, k: string, at: string, lo: number, hi: number, dflt?: number, int = true): number => {
    const v = o[k] ?? dflt;
    if (typeof v !== 'number' || Number.isNaN(v) || v < lo || v > hi || (int && !Number.isInteger(v))) {
      problems.push(
        `${at}${k}: must be ${int ? 'an integer' : 'a number'} in ${lo}..${hi}${v === undefined ? ' (missing)' : `, got ${JSON.stringify(v)}`}`,
      );
      return lo;
    }
    return v;
  };
  const bool = (o: Raw, k: string, at: string, dflt: boolean): boolean => {
    const v = o[k] ?? dflt;
    if (typeof v !== 'boolean') problems.push(`${at}${k}: must be true or false, got ${JSON.stringify(v)}`);
    return v === true;
  };
  const range = (o: Raw, k: string, at: string, lo: number, hi: number, dflt: [number, number]): [number, number] => {
    const v = o[k] ?? dflt;
    if (!Array.isArray(v) || v.length !== 2 || !v.every((x) => typeof x === 'number' && x >= lo && x <= hi) || v[0] > v[1]) {
      problems.push(`${at}${k}: must be [min, max] with ${lo} <= min <= max <= ${hi}, got ${JSON.stringify(v)}`);
      return dflt;
    }
    return [v[0], v[1]];
  };
  const table = (o: Raw, k: string): Raw => {
    const v = o[k] ?? {};
    if (!isObj(v)) problems.push(`${k}: must be a table`);
    return isObj(v) ? v : {};
  };
  known(raw, ['name', 'authorities', 'followers', 'block_time_ms', 'duration_s', 'settle_s', 'seed', 'tmpfs_mb', 'load', 'perturb'], '');
  const name = raw.name ?? 'e2e';
  if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]{1,40}$/.test(name)) problems.push('name: must be 1-40 of [A-Za-z0-9_.-]');
  const authorities = num(raw, 'authorities', '', 1, 10);
  const followers = num(raw, 'followers', '', 0, 10, 0);
  const load = table(raw, 'load');
  known(load, ['transfer_rate', 'simulator', 'sse_subscribers', 'ws_subscribers', 'webhooks'], 'load.');
  const perturb = table(raw, 'perturb');
  known(perturb, ['interval_s', 'kinds', 'outage_s', 'delay_ms', 'schedule', 'spare'], 'perturb.');
  const kinds = perturb.kinds ?? [];
  if (!Array.isArray(kinds) || !kinds.every(isKind))
    problems.push(`perturb.kinds: must be a list of ${PERTURBATION_KINDS.join(', ')}, got ${JSON.stringify(kinds)}`);
  const names = [...Array.from({ length: authorities }, (_, i) => `a${i}`), ...Array.from({ length: followers }, (_, i) => `f${i}`)];
  const durationS = num(raw, 'duration_s', '', 10, 7 * 24 * 3600);
  const schedule = readSchedule(perturb.schedule ?? [], names, durationS, problems);
  const spare = perturb.spare ?? [];
  if (!Array.isArray(spare) || !spare.every((n) => names.includes(n)))
    problems.push(`perturb.spare: must name nodes of this network (${names.join(', ')}), got ${JSON.stringify(spare)}`);
  else if (spare.length >= names.length) problems.push('perturb.spare: at least one node must be left to perturb');
  const m: Manifest = {
    name: typeof name === 'string' ? name : 'e2e',
    authorities,
    followers,
    blockTimeMs: num(raw, 'block_time_ms', '', 100, 60_000, 1000),
    durationS,
    settleS: num(raw, 'settle_s', '', 0, 3600, 30),
    seed: num(raw, 'seed', '', 0, 2 ** 32 - 1, 1),
    tmpfsMb: num(raw, 'tmpfs_mb', '', 16, 4096, 128),
    load: {
      transferRate: num(load, 'transfer_rate', 'load.', 0, 200, 3, false),
      simulator: bool(load, 'simulator', 'load.', false),
      sseSubscribers: num(load, 'sse_subscribers', 'load.', 0, 10, 1),
      wsSubscribers: num(load, 'ws_subscribers', 'load.', 0, 10, 1),
      webhooks: bool(load, 'webhooks', 'load.', true),
    },
    perturb: {
      intervalS: range(perturb, 'interval_s', 'perturb.', 1, 24 * 3600, [30, 60]),
      kinds: Array.isArray(kinds) ? kinds.filter(isKind) : [],
      outageS: range(perturb, 'outage_s', 'perturb.', 1, 3600, [5, 15]),
      delayMs: num(perturb, 'delay_ms', 'perturb.', 1, 60_000, 300),
      schedule,
      spare: Array.isArray(spare) ? spare.filter((n) => typeof n === 'string') : [],
    },
  };
  if (m.authorities + m.followers < 2) problems.push('authorities + followers: a network needs at least 2 nodes');
  if (m.perturb.kinds.includes('partition') && m.authorities < 2) problems.push('perturb.kinds: partition needs at least 2 authorities');
  if (problems.length) throw new ManifestError(problems);
  return m;
}

/** Reads `[[perturb.schedule]]` entries: at_s, kind, nodes, outage_s. */
function readSchedule(v: unknown, names: string[], durationS: number, problems: string[]): ScheduledPerturbation[] {
  if (!Array.isArray(v)) {
    problems.push('perturb.schedule: must be a list of tables');
    return [];
  }
  return v.map((e, i) => {
    const at = `perturb.schedule[${i}].`;
    if (!isObj(e)) {
      problems.push(`${at.slice(0, -1)}: must be a table`);
      return { atS: 0, kind: 'kill', nodes: [], outageS: 1 };
    }
    for (const k of Object.keys(e)) if (!['at_s', 'kind', 'nodes', 'outage_s'].includes(k)) problems.push(`${at}${k}: unknown field`);
    const atS = e.at_s;
    if (typeof atS !== 'number' || atS < 0 || atS >= durationS)
      problems.push(`${at}at_s: must be a number in 0..duration_s (${durationS})`);
    if (!isKind(e.kind)) problems.push(`${at}kind: must be one of ${PERTURBATION_KINDS.join(', ')}`);
    const nodes = e.nodes ?? [];
    if (!Array.isArray(nodes) || !nodes.every((n) => names.includes(n)))
      problems.push(`${at}nodes: must name nodes of this network (${names.join(', ')}), got ${JSON.stringify(nodes)}`);
    const outage = e.outage_s ?? 10;
    if (typeof outage !== 'number' || outage <= 0 || outage > 3600) problems.push(`${at}outage_s: must be a number in 0..3600`);
    return {
      atS: Number(atS),
      // Refused above when it is no kind (the manifest is then refused as a whole).
      kind: isKind(e.kind) ? e.kind : PERTURBATION_KINDS[0],
      nodes: Array.isArray(nodes) ? nodes.filter((n) => typeof n === 'string') : [],
      outageS: Number(outage),
    };
  });
}

/** The node names of a manifest: a0.. for authorities, then f0.. for followers. */
export function nodeNames(m: Pick<Manifest, 'authorities' | 'followers'>): string[] {
  return [...Array.from({ length: m.authorities }, (_, i) => `a${i}`), ...Array.from({ length: m.followers }, (_, i) => `f${i}`)];
}
