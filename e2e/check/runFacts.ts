/**
 * What the checker derives once from a run's history: the nodes, the block time and finality
 * depth, the perturbations (start and end paired, with the nodes each took away), every node's
 * final chain from the sweep, and when each node was first seen at each height.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fields, type HistoryRecord, num, objects, strings } from '../history.ts';

/** One perturbation from its start to its end. */
export interface Perturbation {
  id: number;
  kind: string;
  nodes: string[];
  start: number;
  end: number | null;
  /** Nodes out of the network while it lasts (down, paused, cut off, disk full). */
  isolated: string[];
  /** A partition's sides. */
  groups: string[][] | null;
}

/** A block of a node's final chain. */
interface ChainBlock {
  hash: string;
  stateRoot: string;
  txs: string[];
}

/** Facts of one run. */
export interface RunFacts {
  records: HistoryRecord[];
  nodes: { name: string; authority: boolean }[];
  authorities: string[];
  blockTimeMs: number;
  finalityDepth: number;
  /** When load and perturbations started, and when the quiet tail began (ms). */
  perturbStart: number;
  settleStart: number;
  end: number;
  perturbations: Perturbation[];
  /** Final chain per node (height -> block). */
  chains: Map<string, Map<number, ChainBlock>>;
  /** The reference chain: the longest swept chain. */
  reference: Map<number, ChainBlock>;
  /** (time, height) of every observation of a node's head (samples and stream blocks), time order. */
  heights: Map<string, { t: number; height: number }[]>;
}

/** Derives the facts of `records` (the history of `dir`). */
export function runFacts(records: HistoryRecord[], dir?: string): RunFacts {
  const of = (type: string) => records.filter((r) => r.type === type);
  const cluster = of('cluster')[0];
  const nodes = objects(cluster?.nodes).map((n) => ({ name: String(n.name), authority: n.authority === true }));
  let finalityDepth = 128;
  const genesis = dir ? join(dir, 'net', 'genesis.json') : '';
  if (genesis && existsSync(genesis)) finalityDepth = num(fields(JSON.parse(readFileSync(genesis, 'utf8')))?.finalityDepth) ?? 128;
  const phase = (p: string) => of('run').find((r) => r.phase === p)?.t;
  const end = records.length ? records[records.length - 1].t : 0;
  const perturbations: Perturbation[] = [];
  for (const r of of('perturb')) {
    if (r.phase === 'start') {
      const kind = String(r.kind);
      const nodesHit = strings(r.nodes);
      perturbations.push({
        id: Number(r.id),
        kind,
        nodes: nodesHit,
        start: r.t,
        end: null,
        isolated: kind === 'disk_full' ? nodesHit : strings(r.isolated),
        groups: Array.isArray(r.groups) ? r.groups.map(strings) : null,
      });
    } else if (r.phase === 'end') {
      const p = perturbations.find((x) => x.id === r.id);
      if (p) p.end = r.t;
    }
  }
  const chains = new Map<string, Map<number, ChainBlock>>();
  for (const r of of('chain')) {
    const node = String(r.node);
    if (!chains.has(node)) chains.set(node, new Map());
    chains.get(node)?.set(Number(r.height), { hash: String(r.hash), stateRoot: String(r.stateRoot), txs: strings(r.txs) });
  }
  let reference = new Map<number, ChainBlock>();
  for (const c of chains.values()) if (c.size > reference.size) reference = c;
  const heights = new Map<string, { t: number; height: number }[]>();
  const see = (node: string, t: number, height: unknown) => {
    if (typeof height !== 'number') return;
    if (!heights.has(node)) heights.set(node, []);
    heights.get(node)?.push({ t, height });
  };
  for (const r of records) {
    if (r.type === 'sample') see(String(r.node), r.t, r.height);
    else if (r.type === 'stream' && r.event === 'block') see(String(r.node), r.t, r.height);
  }
  return {
    records,
    nodes,
    authorities: nodes.filter((n) => n.authority).map((n) => n.name),
    blockTimeMs: num(cluster?.blockTimeMs) ?? 1000,
    finalityDepth,
    perturbStart: phase('perturb') ?? phase('started') ?? 0,
    settleStart: phase('settle') ?? end,
    end: phase('sweep') ?? end,
    perturbations,
    chains,
    reference,
    heights,
  };
}

/** Whether the authorities not taken away by `p` still have a majority that can reach each other. */
export function majorityConnected(f: RunFacts, p: Perturbation): boolean {
  const need = Math.floor(f.authorities.length / 2) + 1;
  if (p.groups) return p.groups.some((g) => g.filter((n) => f.authorities.includes(n)).length >= need);
  return f.authorities.filter((a) => !p.isolated.includes(a)).length >= need;
}

/** Seconds with one decimal. */
export const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** An invariant's verdict: PASS, FAIL, or N/A when the run cannot judge it (too short, nothing to judge). */
type Verdict = 'PASS' | 'FAIL' | 'N/A';

/** One invariant's outcome. */
export interface InvariantResult {
  name: string;
  verdict: Verdict;
  /** The figures, one line. */
  figures: string;
  /** Evidence: the first few violations, each a line. */
  details: string[];
}

/** A result, failing when `violations` is non-empty (at most 8 of them kept as details). */
export function result(name: string, figures: string, violations: string[], na = false): InvariantResult {
  return { name, verdict: na ? 'N/A' : violations.length ? 'FAIL' : 'PASS', figures, details: violations.slice(0, 8) };
}
