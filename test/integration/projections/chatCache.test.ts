/**
 * The chat read model keeps a bounded cache of conversations (projections/chat.ts): with a cache
 * of 0-3 conversations it writes the same rows as with every one in memory, and a node whose
 * cache is that small (through a restart, which starts it empty) serves the same chat answers.
 */
import fc from 'fast-check';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Block } from '../../../core/block.ts';
import { h, send } from '../../helpers/economy.ts';
import { DEV_KEYS, openTestChain, type TestChain } from '../../helpers/testChain.ts';
import { type ChatState, chatProjection } from '../../../projections/chat.ts';
import type { BlockEvent, ChainInfo } from '../../../projections/events.ts';
import { foldAll } from '../../../projections/projection.ts';

const CONVS = Array.from({ length: 5 }, (_, i) => h(`conversation-${i}`));
const AUTHORS = DEV_KEYS.slice(1, 5).map((k) => k.address);

/** Block events of chat turns: each turn a conversation and an author index. */
function events(blocks: readonly (readonly [number, number][])[]): BlockEvent[] {
  return blocks.map((turns, b) => {
    const transactions = turns.map(([c, a], i) => ({
      type: 'CHAT_TURN',
      hash: h(`turn-${b}-${i}`),
      from: AUTHORS[a],
      conversationId: CONVS[c],
      role: 'user',
      content: `turn ${b}.${i}`,
      timestamp: 1_000 * (b + 1) + i,
    }));
    return {
      type: 'block',
      block: { index: b + 1, transactions } as unknown as Block,
      txs: transactions,
      diff: {},
      balances: [],
      emitted: 0n,
      replay: false,
    } as unknown as BlockEvent;
  });
}

const info = (recordCache?: number) => ({ recordCache }) as unknown as ChainInfo;

test('random chat traffic folded with a cache of 0-3 conversations writes the rows of an unbounded cache, holding at most the cap', () => {
  const turn = fc.tuple(fc.nat(CONVS.length - 1), fc.nat(AUTHORS.length - 1));
  fc.assert(
    fc.property(fc.array(fc.array(turn, { maxLength: 6 }), { minLength: 1, maxLength: 25 }), (blocks) => {
      const evs = events(blocks);
      const full = foldAll(chatProjection, info(), evs);
      for (const cap of [0, 1, 2, 3]) {
        const small = foldAll(chatProjection, info(cap), evs);
        assert.deepEqual([...small.rows].sort(), [...full.rows].sort(), `cap ${cap}`);
        assert.ok(small.state.convs.size <= cap, `cap ${cap}: holds ${small.state.convs.size}`);
      }
    }),
    { numRuns: 150 },
  );
});

test('folding a turn of a conversation the cache lost without reading it back is refused, not taken for a new one', () => {
  const [first, second] = events([[[0, 0]], [[0, 1]]]);
  const s: ChatState = chatProjection.init(info(0));
  chatProjection.take!(s, new Map([[`k!${CONVS[0]}`, undefined]]));
  chatProjection.apply(s, first);
  assert.equal(s.convs.size, 0);
  assert.deepEqual(chatProjection.needs!(s, second), [`k!${CONVS[0]}`]);
  assert.throws(() => chatProjection.apply(s, second), /not loaded/);
});

const CHAT_PATHS = [
  ...CONVS.flatMap((c) => [`/api/agent/v6/chat/${c}`, `/api/agent/v6/chat/${c}/turns`, `/api/agent/v6/chat/${c}/turns?limit=2`]),
  ...AUTHORS.map((a) => `/api/agent/v6/chat-by-author/${a}`),
];

async function answers(c: TestChain): Promise<string[]> {
  const out: string[] = [];
  for (const p of CHAT_PATHS) {
    const res = await c.app.request(p);
    out.push(`${p} ${res.status} ${await res.text()}`);
  }
  return out;
}

test('a node caching one conversation, restarted midway, serves what a node holding every conversation serves', async () => {
  const small = await openTestChain({ recordCache: 1 });
  let again: TestChain | null = null;
  let full: TestChain | null = null;
  try {
    // Turns across every conversation, block after block: most land in one the cache lost.
    const turns = async (c: TestChain, round: number) => {
      for (let b = 0; b < 4; b++) {
        for (let i = 0; i < 3; i++) {
          const k = (round * 12 + b * 3 + i) % CONVS.length;
          await send(c, 1 + ((b + i + round) % AUTHORS.length), 'CHAT_TURN', {
            conversationId: CONVS[k],
            role: 'user',
            content: `r${round} b${b} t${i}`,
            fee: '1000',
          });
        }
        await c.produce();
      }
    };
    await turns(small, 0);
    await small.close();
    again = await openTestChain({ recordCache: 1, dir: small.dir, clock: small.now() });
    assert.equal(again.node.runner.state(chatProjection).convs.size, 0, 'a restart reads no conversation');
    await turns(again, 1);
    assert.ok(again.node.runner.state(chatProjection).convs.size <= 1);

    full = await openTestChain({ recordCache: Number.POSITIVE_INFINITY, clock: again.now() });
    for (const b of await again.node.store.blocksIn(1, again.node.head().index)) await full.node.importBlock(b);
    assert.equal(full.node.head().hash, again.node.head().hash);
    assert.deepEqual((await again.node.runner.dump()).chat, (await full.node.runner.dump()).chat);
    const [a, b] = [await answers(again), await answers(full)];
    assert.deepEqual(a, b);
    assert.ok(a.every((x) => !x.includes(' 404 ')) && a.some((x) => x.includes('"turnCount":')));
  } finally {
    await small.close().catch(() => undefined);
    await again?.destroy();
    await full?.destroy();
  }
});
