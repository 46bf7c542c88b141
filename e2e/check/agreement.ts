/**
 * Invariant 1, agreement: every node's block hash and stateRoot agree at every height at least
 * the finality depth below the lowest final head, and no stream saw a reorganisation deeper than
 * the finality depth. Heights nearer the head are compared too and reported (a settled network
 * agrees there as well), but only the final zone fails the invariant.
 *
 * Beside it, invariant 0, the runner's own precondition: every p2p byte went through the relays.
 * No client socket on a node's p2p port belonged to anyone but the runner, and no peer address a
 * node served was a node's listen port. Dials the relays refused (a learned route, or a pinned
 * relay used by the wrong node) are counted: they show nodes tried what they learned.
 */
import { type InvariantResult, result, type RunFacts } from './runFacts.ts';
import { fields, objects, strings } from '../history.ts';

/** Checks agreement. */
export function checkAgreement(f: RunFacts): InvariantResult {
  const violations: string[] = [];
  const chains = [...f.chains.entries()];
  if (chains.length === 0)
    return result('1 agreement', 'no chain was swept', ['no node chain in the history (the run did not reach its sweep)']);
  const minHead = Math.min(...chains.map(([, c]) => Math.max(...c.keys())));
  const finalTop = minHead - f.finalityDepth;
  let compared = 0;
  let nearDiffer = 0;
  for (let h = 0; h <= minHead; h++) {
    const seen = chains.map(([n, c]) => [n, c.get(h)] as const).filter(([, b]) => b !== undefined);
    if (seen.length < 2) continue;
    compared++;
    const ref = seen[0][1];
    const differ = seen.filter(([, b]) => b?.hash !== ref?.hash || b?.stateRoot !== ref?.stateRoot);
    if (!differ.length) continue;
    const what = seen.map(([n, b]) => `${n}=${b?.hash.slice(0, 10)}/${b?.stateRoot.slice(0, 10)}`).join(' ');
    if (h <= finalTop) violations.push(`height ${h} (final zone) differs: ${what}`);
    else nearDiffer++;
  }
  let deepest = 0;
  for (const r of f.records) {
    if (r.type !== 'stream' || r.event !== 'reorg') continue;
    const old = fields(r.oldHead) ?? {};
    const depth = Number(old.index ?? old.height ?? r.fromHeight) - Number(r.fromHeight) + 1;
    deepest = Math.max(deepest, depth);
    if (depth > f.finalityDepth)
      violations.push(`${r.sub} saw a reorg of depth ${depth} from height ${r.fromHeight} (finality depth ${f.finalityDepth})`);
  }
  const figures =
    `${chains.length} nodes, ${compared} heights compared (lowest head ${minHead}, final zone 0..${Math.max(-1, finalTop)} at depth ${f.finalityDepth}), ` +
    `${nearDiffer} differing heights above the final zone, deepest reorg seen ${deepest}`;
  return result('1 agreement', figures, violations);
}

/** Checks that the relays carried everything. */
export function checkRouting(f: RunFacts): InvariantResult {
  const violations: string[] = [];
  const routing = f.records.filter((r) => r.type === 'routing');
  for (const r of routing)
    for (const s of objects(r.foreign))
      violations.push(`a socket not the runner's reached p2p port ${s.serverPort} from port ${s.clientPort}`);
  const peers = f.records.filter((r) => r.type === 'peers');
  for (const r of peers)
    if (typeof r.peerId === 'string' && r.peerId !== r.expected) violations.push(`${r.node} serves peer id ${r.peerId}, not ${r.expected}`);
  for (const r of peers)
    if (strings(r.direct).length) violations.push(`${r.node} lists peer addresses that are not relays: ${strings(r.direct).join(' ')}`);
  const refused = f.records.filter((r) => r.type === 'relay' && r.event === 'refused');
  const learned = refused.filter((r) => String(r.reason).startsWith('learned route')).length;
  const wrong = refused.filter((r) => String(r.reason).startsWith('only ')).length;
  const cut = refused.filter((r) => r.reason === 'link cut').length;
  const opened = f.records.filter((r) => r.type === 'relay' && r.event === 'open').length;
  const figures = `${routing.length} socket scans, ${peers.length} peer listings (peer ids stable: ${peers.filter((r) => r.peerId === r.expected).length} checks); relays opened ${opened} connections, refused ${cut} on cut links, ${learned} learned-route dials, ${wrong} dials through another pair's relay`;
  return result('0 every p2p byte through the relays', figures, violations, routing.length === 0);
}
