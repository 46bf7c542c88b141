/**
 * Invariant 4: every stream subscriber sees every height exactly once and in order. An SSE
 * subscriber resumes with Last-Event-ID and a WebSocket one with `since` (both the last block's
 * `<height>:<hash>`), so its heights must run on without gap or repeat across its reconnects; a
 * `reorg` event sends it back to `fromHeight`, and the hash it last saw at each height must be the
 * final chain's (a missed reorganisation leaves a stale one).
 */
import { type InvariantResult, result, type RunFacts } from './runFacts.ts';

interface SubState {
  kind: string;
  conn: number;
  last: number | null;
  blocks: number;
  reconnects: number;
  seen: Map<number, string>;
}

/** Checks every subscriber's stream. */
export function checkStreams(f: RunFacts): InvariantResult {
  const subs = new Map<string, SubState>();
  const violations: string[] = [];
  let reorgs = 0;
  for (const r of f.records) {
    if (r.type !== 'stream') continue;
    const id = String(r.sub);
    let s = subs.get(id);
    if (!s) {
      s = { kind: String(r.kind), conn: Number(r.conn), last: null, blocks: 0, reconnects: 0, seen: new Map() };
      subs.set(id, s);
    }
    const newConn = Number(r.conn) !== s.conn;
    if (newConn) {
      s.reconnects++;
      s.conn = Number(r.conn);
    }
    if (r.event === 'reorg') {
      reorgs++;
      if (s.last !== null) s.last = Math.min(s.last, Number(r.fromHeight) - 1);
      continue;
    }
    if (r.event !== 'block') continue;
    const h = Number(r.height);
    s.blocks++;
    if (s.last !== null && h !== s.last + 1) {
      const what = h <= s.last ? `repeated height ${h} after ${s.last}` : `gap: height ${h} after ${s.last} (${h - s.last - 1} missing)`;
      violations.push(`${id} conn ${r.conn}${newConn ? ' (after reconnecting)' : ''}: ${what}`);
    }
    s.last = h;
    s.seen.set(h, String(r.hash));
  }
  // A stale hash: the subscriber's last word on a height is not the final chain's block.
  const refTop = Math.max(-1, ...f.reference.keys());
  for (const [id, s] of subs) {
    let stale = 0;
    let first = -1;
    for (const [h, hash] of s.seen) {
      const ref = f.reference.get(h);
      if (!ref || h > refTop - 3 || ref.hash === hash) continue;
      stale++;
      if (first < 0) first = h;
    }
    if (stale)
      violations.push(
        `${id}: ${stale} heights end on a block not in the final chain (first ${first}): a reorganisation it was not told of`,
      );
  }
  const all = [...subs.values()];
  const figures =
    `${subs.size} subscribers (${all.filter((s) => s.kind === 'sse').length} SSE, ${all.filter((s) => s.kind === 'ws').length} WS), ` +
    `${all.reduce((a, s) => a + s.blocks, 0)} block events, ${all.reduce((a, s) => a + s.reconnects, 0)} reconnects, ${reorgs} reorg events`;
  return result('4 streams: every height once, in order', figures, violations, subs.size === 0);
}
