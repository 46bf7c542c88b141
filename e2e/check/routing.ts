/**
 * The runner's own precondition, checked like an invariant: every p2p byte went through the
 * relays. No client socket on a node's p2p port belonged to anyone but the runner, and no peer
 * address a node served was a node's listen port. Dials the relays refused (a learned route, or
 * a pinned relay used by the wrong node) are counted: they show nodes tried what they learned.
 */
import { type InvariantResult, result } from './invariant.ts';
import type { RunFacts } from './runFacts.ts';

/** Checks that the relays carried everything. */
export function checkRouting(f: RunFacts): InvariantResult {
  const violations: string[] = [];
  const routing = f.records.filter((r) => r.type === 'routing');
  for (const r of routing)
    for (const s of r.foreign as { serverPort: number; clientPort: number }[])
      violations.push(`a socket not the runner's reached p2p port ${s.serverPort} from port ${s.clientPort}`);
  const peers = f.records.filter((r) => r.type === 'peers');
  for (const r of peers)
    if ((r.direct as string[]).length)
      violations.push(`${r.node} lists peer addresses that are not relays: ${(r.direct as string[]).join(' ')}`);
  const refused = f.records.filter((r) => r.type === 'relay' && r.event === 'refused');
  const learned = refused.filter((r) => String(r.reason).startsWith('learned route')).length;
  const wrong = refused.filter((r) => String(r.reason).startsWith('only ')).length;
  const cut = refused.filter((r) => r.reason === 'link cut').length;
  const opened = f.records.filter((r) => r.type === 'relay' && r.event === 'open').length;
  const figures = `${routing.length} socket scans, ${peers.length} peer listings; relays opened ${opened} connections, refused ${cut} on cut links, ${learned} learned-route dials, ${wrong} dials through another pair's relay`;
  return result('0 every p2p byte through the relays', figures, violations, routing.length === 0);
}
