/** Shared helpers of the API tests: requests through `app.request`, error-body checks, state snapshots. */
import { literal } from './literal.ts';
import assert from 'node:assert/strict';
import { DEV_KEYS, openTestChain, type TestChain } from './testChain.ts';
import { type Account, emptyAccount } from '../../core/state.ts';

/** An answer with its parsed JSON body. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** Sends a request to the chain's app and parses the JSON answer. */
export async function call(chain: TestChain, path: string, init?: RequestInit): Promise<Answer> {
  const res = await chain.app.request(path, init);
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(
      `${init?.method ?? 'GET'} ${path.slice(0, 80)} answered ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`,
    );
  }
  return { status: res.status, body, headers: res.headers };
}

/** GET `path`. */
export function get(chain: TestChain, path: string, headers?: Record<string, string>): Promise<Answer> {
  return call(chain, path, headers ? { headers } : undefined);
}

/** POST /api/chain/tx with an object (sent as JSON) or a raw string body. */
export function postTx(chain: TestChain, body: unknown): Promise<Answer> {
  return call(chain, '/api/chain/tx', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Asserts an error answer: the status, the code, and a body of exactly `{error, code}`. */
export function assertError(res: Answer, status: number, code: string, message?: string | RegExp): void {
  assert.deepEqual(
    { status: res.status, code: res.body?.code },
    { status, code },
    `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
  );
  assertErrorShape(res.body);
  if (typeof message === 'string') assert.equal(res.body.error, message);
  else if (message) assert.match(res.body.error, literal(message));
}

/** Asserts a body is exactly `{error: non-empty string, code: UPPER_SNAKE string}`. */
export function assertErrorShape(body: any): void {
  assert.equal(typeof body, 'object');
  assert.ok(body !== null && !Array.isArray(body), 'error body must be an object');
  assert.deepEqual(Object.keys(body).sort(), ['code', 'error'], `error body keys: ${JSON.stringify(body).slice(0, 200)}`);
  assert.equal(typeof body.error, 'string');
  assert.ok(body.error.length > 0, 'error message must not be empty');
  assert.equal(typeof body.code, 'string');
  assert.match(body.code, /^[A-Z][A-Z_]*$/);
}

/** Opens a test chain, runs `fn`, and always destroys the chain. */
export async function withChain<T>(fn: (chain: TestChain) => Promise<T>, opts?: Parameters<typeof openTestChain>[0]): Promise<T> {
  const chain = await openTestChain(opts);
  try {
    return await fn(chain);
  } finally {
    await chain.destroy();
  }
}

/** What a refused request must leave untouched: height, mempool, every dev balance, nonce and storage. */
export function snapshot(chain: TestChain) {
  return {
    height: chain.node.head().index,
    head: chain.node.head().hash,
    mempool: chain.node.mempool.list().map((t) => t.hash),
    accounts: DEV_KEYS.map((k) => {
      const a = heldAccount(chain, k.address);
      return {
        balance: a.balance.toString(),
        nonce: a.nonce,
        storageCapacity: a.storageCapacity.toString(),
        storageUsed: a.storageUsed.toString(),
      };
    }),
  };
}

/** Asserts the keys of an object, in any order. */
export function assertKeys(obj: unknown, keys: string[], what = 'object'): void {
  assert.ok(typeof obj === 'object' && obj !== null && !Array.isArray(obj), `${what} must be an object`);
  assert.deepEqual(Object.keys(obj as object).sort(), [...keys].sort(), `${what} keys`);
}

/** 64 lowercase hex characters. */
export const HASH = /^[0-9a-f]{64}$/;
/** An address. */
export const ADDRESS = /^ox[0-9a-f]{40}$/;

/** 1,000,000 OMBRA in micro-units: each dev account's allocation. */
export const DEV_ALLOCATION = 1_000_000_000_000n;

/** An address nobody holds a key for (stable across runs). */
export const STRANGER = `ox${'ab'.repeat(20)}`;

/**
 * An account as the node's consensus state holds it, for synchronous checks: a test chain keeps
 * every account (openTestChain's `accountCache` is Infinity unless a test bounds it).
 */
export function heldAccount(chain: TestChain, address: string): Readonly<Account> {
  return chain.node.state().accounts.get(address) ?? emptyAccount();
}

/** The next nonce of dev key `i`, pending transactions included. */
export function nextNonce(chain: TestChain, i: number): number {
  const a = DEV_KEYS[i].address;
  return heldAccount(chain, a).nonce + chain.node.mempool.pending(a).count;
}
