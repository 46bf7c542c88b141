/**
 * A real node on a temporary LevelDB for tests: dev genesis (or another), the dev keys, and
 * deterministic block production (`produce`) instead of the wall-clock timer.
 */
import type { MempoolOptions } from '../../node/mempool/mempoolOptions.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../api/app.ts';
import { noNetwork, type ApiDeps, type ApiOptions, type NetworkView } from '../../api/context.ts';
import { StreamHub } from '../../api/streams/streamHub.ts';
import { slotOf } from '../../core/block.ts';
import { parseGenesis, type Genesis } from '../../core/genesis.ts';
import { DEV_MNEMONIC, keyPairFromMnemonic, type KeyPair } from '../../core/keys.ts';
import { signTx } from '../../core/txCodec.ts';
import { OmbraNode } from '../../node/node.ts';
import type { ChainQueries } from '../../queries/chainQueries.ts';
import { createQueries } from '../../queries/index.ts';
import { ApiKeyStore } from '../../services/apiKeys.ts';

/** The dev accounts 0-9 (index 0 is the dev authority). */
export const DEV_KEYS: KeyPair[] = Array.from({ length: 10 }, (_, i) => keyPairFromMnemonic(DEV_MNEMONIC, i));

/** Reads a genesis from fixtures/. */
export function fixtureGenesis(name = 'dev-genesis.json'): Genesis {
  return parseGenesis(JSON.parse(readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8')));
}

/** A temporary directory removed by `cleanup`. */
export function tempDir(prefix = 'ombra-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A test chain: node, queries, app, a clock it controls. */
export interface TestChain {
  node: OmbraNode;
  queries: ChainQueries;
  app: ReturnType<typeof createApp>;
  dir: string;
  genesis: Genesis;
  /** The node's clock (ms); `produce` moves it one slot per block. */
  now(): number;
  /** Produces `n` blocks from the mempool in consecutive slots. */
  produce(n?: number): Promise<void>;
  /** Moves the clock forward by `ms` (the next `produce` lands in the slot it reaches). */
  advance(ms: number): void;
  /** Signs a TRANSFER from dev key `from` with the sender's next nonce (pending included). */
  transfer(from: number, to: string, amount: bigint | string, fee?: bigint | string): Record<string, unknown>;
  /** Closes the node (keeps the directory). */
  close(): Promise<void>;
  /** Closes the node and removes the directory. */
  destroy(): Promise<void>;
}

/**
 * The API's dependencies over a test node, as launch/launch.ts wires them; `parts` replaces any
 * (a served hub, loaded keys, alerts, a limiter).
 */
export function testApiDeps(node: OmbraNode, parts: Partial<ApiDeps> = {}): ApiDeps {
  return {
    queries: createQueries(node.readPorts()),
    chain: node,
    network: noNetwork,
    streams: new StreamHub(node.streamPorts()),
    keys: new ApiKeyStore(node.store),
    log: node.log,
    ...parts,
  };
}

/** Opens a node on a fresh (or given) directory. */
export async function openTestChain(
  opts: {
    genesis?: Genesis;
    dir?: string;
    network?: NetworkView;
    /** The API's options (api/context.ts). */
    api?: Partial<ApiOptions>;
    undoDepth?: number;
    mempool?: Partial<MempoolOptions>;
    /** The clock's start (default now): a past start produces blocks a real-time node accepts. */
    clock?: number;
    /** Finished records the consensus state keeps in memory per kind (NodeOptions.recordCache). */
    recordCache?: number;
    /**
     * Accounts the consensus state keeps in memory (NodeOptions.accountCache). Default Infinity:
     * helpers here read `node.state().accounts` synchronously (nonces, balances).
     */
    accountCache?: number;
  } = {},
): Promise<TestChain> {
  const genesis = opts.genesis ?? fixtureGenesis();
  const tmp = opts.dir ? { dir: opts.dir, cleanup: () => rmSync(opts.dir!, { recursive: true, force: true }) } : tempDir();
  let clock = Math.max(opts.clock ?? Date.now(), genesis.timestamp + genesis.blockTimeMs);
  const node = await OmbraNode.open({
    dbDir: join(tmp.dir, 'db'),
    genesis,
    clock: () => clock,
    undoDepth: opts.undoDepth,
    mempool: opts.mempool,
    recordCache: opts.recordCache,
    accountCache: opts.accountCache ?? Number.POSITIVE_INFINITY,
  });
  const deps = testApiDeps(node, { network: opts.network ?? noNetwork });
  const queries = deps.queries.chain;
  const app = createApp(deps, opts.api);
  const authority = DEV_KEYS.find((k) => k.address === genesis.authorities[0]);
  const chain: TestChain = {
    node,
    queries,
    app,
    dir: tmp.dir,
    genesis,
    now: () => clock,
    async produce(n = 1) {
      if (!authority || genesis.authorities.length !== 1) throw new Error('produce() needs a single dev authority');
      for (let i = 0; i < n; i++) {
        const bt = genesis.blockTimeMs;
        const slot = Math.max(slotOf(clock, bt), slotOf(node.head().timestamp, bt) + 1);
        clock = slot * bt + 1;
        await node.produce(authority, clock);
      }
    },
    advance(ms) {
      clock += ms;
    },
    transfer(from, to, amount, fee = '1000') {
      const key = DEV_KEYS[from];
      const nonce = (node.state().accounts.get(key.address)?.nonce ?? 0) + node.mempool.pending(key.address).count;
      return signTx({ type: 'TRANSFER', from: key.address, to, amount: String(amount), fee: String(fee), nonce, timestamp: clock }, key);
    },
    close: () => node.stop(),
    async destroy() {
      await node.stop();
      tmp.cleanup();
    },
  };
  return chain;
}
