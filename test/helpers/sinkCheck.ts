/**
 * Compares a sink's PostgreSQL mirror with the node it follows, through the node's public API:
 * every block hash up to the mirror's cursor, the transaction count and the count per type, and
 * the balance and nonce of every account the chain names (the node answers at its head, so call
 * this while no transaction lands after the cursor). The mirror is read in one snapshot, so the
 * sink may keep committing meanwhile.
 */
import pg from 'pg';
import assert from 'node:assert/strict';
import { OmbraClient } from '../../client/reads.ts';
import type { Block } from '../../core/block.ts';
import { partiesOf } from '../../core/tx/registry.ts';
import { stateTx } from '../../core/txCodec.ts';

/** What the comparison covered. */
export interface SinkCheck {
  height: number;
  txs: number;
  types: number;
  accounts: number;
}

/** The node's blocks 0..to. */
async function nodeBlocks(client: OmbraClient, to: number): Promise<Block[]> {
  const out: Block[] = [];
  while (out.length <= to) {
    const r = (await client.blocksRange(out.length, Math.min(to, out.length + 499))) as unknown as { blocks: Block[] };
    out.push(...r.blocks);
  }
  return out;
}

/** Asserts the mirror in `schema` equals the node at `url` up to the mirror's cursor; answers the counts. */
export async function checkMirror(dbUrl: string, schema: string, url: string): Promise<SinkCheck> {
  const db = new pg.Client(dbUrl);
  await db.connect();
  // One snapshot: a sink still committing cannot move the cursor between two of these reads.
  await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const q = async <T extends pg.QueryResultRow>(sql: string) => (await db.query<T>(sql)).rows;
    const [cursor] = await q<{ height: string; hash: string }>(`SELECT height, hash FROM ${schema}.sink_cursor`);
    assert.ok(cursor, 'the mirror has a cursor');
    const height = Number(cursor.height);
    const client = new OmbraClient(url);
    const blocks = await nodeBlocks(client, height);
    assert.equal(blocks[height].hash, cursor.hash, 'the cursor is on the node chain');
    const mine = await q<{ height: string; hash: string }>(`SELECT height, hash FROM ${schema}.blocks ORDER BY height`);
    assert.deepEqual(
      mine.map((r) => `${r.height}:${r.hash}`),
      blocks.map((b) => `${b.index}:${b.hash}`),
      'every block once, the node branch',
    );
    const types = new Map<string, number>();
    const addresses = new Set<string>();
    for (const b of blocks) {
      addresses.add(b.proposer.toLowerCase());
      for (const tx of b.transactions) {
        types.set(tx.type, (types.get(tx.type) ?? 0) + 1);
        for (const a of partiesOf(stateTx(tx))) addresses.add(a);
      }
    }
    const perType = await q<{ type: string; n: string }>(`SELECT type, count(*) AS n FROM ${schema}.transactions GROUP BY type`);
    assert.deepEqual(Object.fromEntries(perType.map((r) => [r.type, Number(r.n)])), Object.fromEntries(types), 'transactions per type');
    const [{ n: dupes }] = await q<{ n: string }>(
      `SELECT count(*) AS n FROM (SELECT hash FROM ${schema}.transactions GROUP BY hash HAVING count(*) > 1) d`,
    );
    assert.equal(Number(dupes), 0);
    const accounts = await q<{ address: string; balance: string; nonce: string }>(`SELECT address, balance, nonce FROM ${schema}.accounts`);
    const byAddress = new Map(accounts.map((r) => [r.address, r]));
    for (const a of byAddress.keys()) addresses.add(a);
    let checked = 0;
    for (const address of [...addresses].filter((a) => a !== 'ox0000000000000000000000000000000000000000')) {
      const node = (await client.http.get(`/api/chain/account/${address}`)) as { balance: string; nonce: number };
      const row = byAddress.get(address);
      assert.deepEqual(
        row ? { balance: row.balance, nonce: Number(row.nonce) } : { balance: '0', nonce: 0 },
        { balance: node.balance, nonce: node.nonce },
        `account ${address}`,
      );
      // A balance at a height is one query: the last change at or below it; at the cursor, the balance.
      const [atHeight] = await q<{ b: string | null }>(
        `SELECT (SELECT balance_after FROM ${schema}.balance_changes WHERE address = '${address}' AND block_height <= ${height} ORDER BY block_height DESC LIMIT 1) AS b`,
      );
      assert.equal(atHeight.b ?? '0', node.balance, `balance_changes of ${address}`);
      checked++;
    }
    const txs = [...types.values()].reduce((a, b) => a + b, 0);
    return { height, txs, types: types.size, accounts: checked };
  } finally {
    await db.end();
  }
}
