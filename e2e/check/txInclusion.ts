/**
 * Invariant 3: every transaction acknowledged with 200 (load and funding) is in the final chain
 * exactly once, whichever node acknowledged it and whatever happened to that node afterwards. A
 * missing one is shown with the node that acknowledged it, when, what happened to that node
 * next, and what each node said of it at the end.
 */
import { type InvariantResult, result, type RunFacts, secs } from './runFacts.ts';
import { fields, num, objects } from '../history.ts';

/** Inclusion figures the summary reuses. */
export interface TxFigures {
  submitted: number;
  acked: number;
  included: number;
  refusedByCode: Record<string, number>;
}

/** Checks inclusion; answers the result and the figures. */
export function checkTxInclusion(f: RunFacts): { result: InvariantResult; figures: TxFigures } {
  const urlToNode = new Map<string, string>();
  for (const r of f.records)
    if (r.type === 'cluster') for (const n of objects(r.nodes)) urlToNode.set(`http://127.0.0.1:${n.http}`, String(n.name));
  const nodeOf = (v: unknown) => urlToNode.get(String(v)) ?? String(v);
  const acked = new Map<string, { t: number; node: string; nonce: unknown; account: unknown }>();
  const refusedByCode: Record<string, number> = {};
  let submitted = 0;
  for (const r of f.records) {
    if (r.type !== 'tx' && r.type !== 'fund') continue;
    submitted++;
    if (r.status === 200) {
      if (!acked.has(String(r.hash))) acked.set(String(r.hash), { t: r.t, node: nodeOf(r.node), nonce: r.nonce, account: r.account });
    } else {
      const code = String(r.code ?? (r.status === 0 ? `no answer (${r.error})` : r.status));
      refusedByCode[code] = (refusedByCode[code] ?? 0) + 1;
    }
  }
  const count = new Map<string, number>();
  for (const b of f.reference.values()) for (const h of b.txs) count.set(h, (count.get(h) ?? 0) + 1);
  const finals = new Map<string, string[]>();
  for (const r of f.records)
    if (r.type === 'tx_final') {
      const body = fields(r.body);
      const said = body?.status ?? body?.code ?? String(r.status);
      finals.set(String(r.hash), [...(finals.get(String(r.hash)) ?? []), `${r.node}:${said}`]);
    }
  const violations: string[] = [];
  let included = 0;
  const missingByNode: Record<string, number> = {};
  for (const [hash, a] of acked) {
    const c = count.get(hash) ?? 0;
    if (c === 1) {
      included++;
      continue;
    }
    if (c > 1) {
      violations.push(`${hash.slice(0, 16)} included ${c} times`);
      continue;
    }
    missingByNode[a.node] = (missingByNode[a.node] ?? 0) + 1;
    const hits = (p: (typeof f.perturbations)[number]) => p.nodes.includes(a.node) || p.groups !== null;
    const next = f.perturbations.find((p) => p.start >= a.t && hits(p));
    const before = f.perturbations.filter((p) => p.start < a.t && hits(p)).at(-1);
    violations.push(
      `${hash.slice(0, 16)} acked by ${a.node} at +${secs(a.t - f.perturbStart)} (nonce ${a.nonce}) never included; ` +
        `fault before: ${before ? `#${before.id} ${before.kind}${before.end !== null && before.end <= a.t ? ` ended ${secs(a.t - before.end)} earlier` : ' under way'}` : 'none'}; ` +
        `next fault: ${next ? `#${next.id} ${next.kind} ${secs(next.start - a.t)} later` : 'none'}; at the end: ${(finals.get(hash) ?? ['not asked']).join(' ')}`,
    );
  }
  const missing = acked.size - included;
  // Acknowledged while the node had no link to any peer (its links cut or dropped).
  const cutOff = [...acked.entries()].filter(([, a]) =>
    f.perturbations.some(
      (p) => (p.kind === 'disconnect' || p.kind === 'drop') && p.nodes.includes(a.node) && p.start <= a.t && a.t <= (p.end ?? f.end),
    ),
  );
  const cutOffLost = cutOff.filter(([h]) => (count.get(h) ?? 0) !== 1).length;
  // What the node's last sample before the answer said: no peer at all, or far behind the network.
  const samples = new Map<string, { t: number; peers?: number; height?: number }[]>();
  for (const r of f.records) {
    if (r.type !== 'sample') continue;
    const list = samples.get(String(r.node)) ?? [];
    if (!list.length) samples.set(String(r.node), list);
    list.push({ t: r.t, peers: num(r.peers), height: num(r.height) });
  }
  const lastSample = (node: string, t: number) => {
    const list = samples.get(node) ?? [];
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].t <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? list[lo - 1] : undefined;
  };
  const networkTop = (t: number) => Math.max(-1, ...f.nodes.map((n) => lastSample(n.name, t)?.height ?? -1));
  const noPeer = [...acked.values()].filter((a) => lastSample(a.node, a.t)?.peers === 0).length;
  const gapsBehind = f.records.filter(
    (r) => r.type === 'tx' && r.code === 'NONCE_GAP' && networkTop(r.t) > (lastSample(String(r.node), r.t)?.height ?? 0) + 2,
  ).length;
  const figures =
    `${submitted} submitted, ${acked.size} acknowledged, ${included} included once, ${missing} not` +
    (missing
      ? ` (acknowledged by ${Object.entries(missingByNode)
          .map(([n, c]) => `${n}: ${c}`)
          .join(', ')})`
      : '') +
    `; ${cutOff.length} acknowledged by a node with every link cut or dropped (${cutOffLost} of them lost), ${noPeer} by a node showing 0 peers` +
    `; ${gapsBehind} NONCE_GAP answers from a node more than 2 blocks behind the network (503 SYNCING would send the client elsewhere)` +
    `; refused: ${
      Object.entries(refusedByCode)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none'
    }`;
  if (f.reference.size === 0) violations.unshift('no final chain to check against (the run did not reach its sweep)');
  return {
    result: result('3 acknowledged transactions included once', figures, violations),
    figures: { submitted, acked: acked.size, included, refusedByCode },
  };
}
