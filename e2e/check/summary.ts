/**
 * The run's summary figures: duration, blocks, transactions acknowledged and included,
 * perturbations by kind, worst stall, convergence times, RSS per node, the simulator's exits,
 * what a node with a full disk answered, and the runner's own notes.
 */
import { availableParallelism } from 'node:os';
import type { LivenessFigures } from './liveness.ts';
import type { NodeResources } from './resources.ts';
import { type RunFacts, secs } from './runFacts.ts';
import type { TxFigures } from './txInclusion.ts';
import { fields } from '../history.ts';

/** The summary lines of a run. */
export function summaryLines(f: RunFacts, live: LivenessFigures, txs: TxFigures, nodes: NodeResources[]): string[] {
  const kinds = new Map<string, number>();
  for (const p of f.perturbations) kinds.set(p.kind, (kinds.get(p.kind) ?? 0) + 1);
  const height = Math.max(-1, ...f.reference.keys());
  const inBlocks = [...f.reference.values()].reduce((a, b) => a + b.txs.length, 0);
  const out = [
    `duration: ${secs(f.settleStart - f.perturbStart)} of load and perturbations, ${secs(f.end - f.settleStart)} settling`,
    `blocks: ${height} (final height), ${inBlocks} transactions in them`,
    `transactions: ${txs.submitted} submitted, ${txs.acked} acknowledged, ${txs.included} of those included`,
    `perturbations: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    `worst stall of the network head: ${secs(live.worstStallMs)}`,
    `convergence after each perturbation: ${live.convergence.map((c) => `#${c.id} ${c.kind} ${c.ms === null ? 'never' : secs(c.ms)}`).join(', ') || 'none'}`,
    `RSS slope per node (one-minute means after 10 min): ${nodes.map((n) => `${n.node} ${n.restarted ? 'restarted' : n.slopeMiBh === null ? 'n/a' : `${n.slopeMiBh.toFixed(1)} MiB/h`}`).join(', ')}`,
  ];
  const loads = f.records.filter((r) => r.type === 'host').map((r) => Number(r.load1));
  if (loads.length)
    out.push(
      `host load average (1 min): median ${loads.sort((a, b) => a - b)[Math.floor(loads.length / 2)].toFixed(1)}, max ${loads[loads.length - 1].toFixed(1)}, on ${availableParallelism()} cores`,
    );
  const sim = f.records.filter((r) => r.type === 'simulator' && r.event === 'exit' && !r.expected);
  if (f.records.some((r) => r.type === 'simulator'))
    out.push(`simulator: ${sim.length} exits before the end${sim.length ? ` (last: ${JSON.stringify(sim.at(-1)?.tail)})` : ''}`);
  const health = new Map<string, number>();
  for (const r of f.records)
    if (r.type === 'sample' && r.health !== 200)
      health.set(`${r.health} ${r.healthStatus ?? ''}`.trim(), (health.get(`${r.health} ${r.healthStatus ?? ''}`.trim()) ?? 0) + 1);
  out.push(`health answers other than 200: ${[...health].map(([k, n]) => `${k} x${n}`).join(', ') || 'none'}`);
  const full = f.records.filter((r) => r.type === 'disk_full_health');
  if (full.length) {
    const said = full.map(
      (r) => `${r.after ? 'after' : 'full'}: ${r.status} ${fields(r.body)?.reason ?? fields(r.body)?.status ?? r.error}`,
    );
    out.push(`disk full: ${[...new Set(said)].slice(0, 6).join('; ')}`);
  }
  const fiveHundreds = f.records.filter((r) => r.type === 'tx' && Number(r.status) >= 500);
  if (fiveHundreds.length)
    out.push(
      `transaction submissions answered 5xx: ${fiveHundreds.length} (${[...new Set(fiveHundreds.map((r) => `${r.status} ${r.code}`))].join(', ')})`,
    );
  const notes = new Map<string, number>();
  for (const r of f.records.filter((x) => x.type === 'note')) {
    const text = String(r.text).replace(/ \(attempt \d+\)$/, '');
    notes.set(text, (notes.get(text) ?? 0) + 1);
  }
  for (const [text, n] of notes) out.push(`note: ${text}${n > 1 ? ` (x${n})` : ''}`);
  const warns = new Map<string, number>();
  for (const r of f.records) {
    if (r.type !== 'log' || r.level !== 'warn') continue;
    const reason = /"(?:reason|error)":"([^"]{0,80})/.exec(String(r.line))?.[1];
    const key = `${r.node} "${r.msg}"${reason ? ` (${reason.replace(/\/tmp\/\S+/g, 'DIR')})` : ''}`;
    warns.set(key, (warns.get(key) ?? 0) + 1);
  }
  const top = [...warns].sort((a, b) => b[1] - a[1]).slice(0, 8);
  if (top.length) out.push(`warnings, most frequent: ${top.map(([k, n]) => `${k} x${n}`).join('; ')}`);
  const resets = f.records.filter((r) => r.type === 'nonce_reset').length;
  if (resets) out.push(`accounts re-read after a minute stuck behind a nonce gap: ${resets}`);
  return out;
}
