/**
 * Invariant 5: every alert is delivered at least once, under one `webhook-id` on every retry.
 * Each node's `miner_block` subscription should deliver every block of the final chain from two
 * heights above where it subscribed up to five below the node's final head (the last few may
 * still be on their way when the run stops); one block must never come under two ids, nor one id
 * carry two blocks.
 */
import { type InvariantResult, result, type RunFacts } from './runFacts.ts';

/** Checks webhook deliveries. */
export function checkWebhooks(f: RunFacts): InvariantResult {
  const subs = f.records.filter((r) => r.type === 'webhook_subscribe');
  if (subs.length === 0) return result('5 webhooks: every alert at least once, one id', 'no subscription', [], true);
  const violations: string[] = [];
  let deliveries = 0;
  let expected = 0;
  let missing = 0;
  let retries = 0;
  for (const s of subs) {
    const node = String(s.node);
    if (s.status !== 200) {
      violations.push(`${node}: subscribing answered ${s.status} ${JSON.stringify(s.body)}`);
      continue;
    }
    const idsByBlock = new Map<string, Set<string>>();
    const blocksById = new Map<string, Set<string>>();
    for (const r of f.records) {
      if (r.type !== 'webhook' || r.node !== node) continue;
      deliveries++;
      const hash = String(r.blockHash);
      const id = String(r.id);
      if (!idsByBlock.has(hash)) idsByBlock.set(hash, new Set());
      if (!blocksById.has(id)) blocksById.set(id, new Set());
      if (idsByBlock.get(hash)?.has(id)) retries++;
      idsByBlock.get(hash)?.add(id);
      blocksById.get(id)?.add(hash);
    }
    for (const [hash, ids] of idsByBlock)
      if (ids.size > 1) violations.push(`${node}: block ${hash.slice(0, 12)} delivered under ${ids.size} webhook-ids`);
    for (const [id, hashes] of blocksById)
      if (hashes.size > 1) violations.push(`${node}: webhook-id ${id} carried ${hashes.size} different blocks`);
    const chain = f.chains.get(node) ?? f.reference;
    const top = Math.max(-1, ...chain.keys()) - 5;
    const lost: number[] = [];
    for (let h = Number(s.height) + 2; h <= top; h++) {
      const b = f.reference.get(h);
      if (!b) continue;
      expected++;
      if (!idsByBlock.has(b.hash)) lost.push(h);
    }
    missing += lost.length;
    if (lost.length)
      violations.push(
        `${node}: ${lost.length} final blocks never delivered (heights ${lost.slice(0, 6).join(', ')}${lost.length > 6 ? ', ...' : ''})`,
      );
  }
  const figures = `${subs.length} subscriptions, ${deliveries} deliveries (${retries} repeated with the same id), ${expected} expected, ${missing} missing`;
  return result('5 webhooks: every alert at least once, one id', figures, violations);
}
