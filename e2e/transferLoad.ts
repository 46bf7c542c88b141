/**
 * Signed transfers at a set rate to random running nodes, from the runner's own accounts (dev
 * mnemonic indexes 20 and up, funded from index 9 at the start, so the simulator's accounts 0-9
 * never race them for nonces). Each account has one submission in flight and a nonce that never
 * goes below an acknowledged one: a node refusing a nonce as stale moves it up; a gap (that node
 * has not seen the account's previous transaction yet) is retried elsewhere, and only an account
 * stuck for a minute is re-read from the chain (recorded as `nonce_reset`).
 */
import { TRANSFER } from '../core/tx/transfer.ts';
import { DEV_MNEMONIC, type KeyPair, keyPairFromMnemonic } from '../core/keys.ts';
import { buildTx } from '../client/signer.ts';
import type { SignedTx } from '../core/tx/handler.ts';
import type { History } from './history.ts';
import { call, sleep } from './http.ts';
import type { Rng } from './rng.ts';

/** First mnemonic index of the load accounts. */
const FIRST_INDEX = 20;

interface Account {
  key: KeyPair;
  nonce: number;
  busy: boolean;
  /** When a gap first blocked the account (0 when not blocked). */
  stuckSince: number;
  /** A transaction whose submission had no answer: sent again as is (same hash), never re-signed. */
  unsure: SignedTx | null;
}

/** The transfer load. */
export class TransferLoad {
  private readonly accounts: Account[];
  private stopped = false;
  private readonly history: History;
  private readonly rng: Rng;
  /** Transactions acknowledged with 200 (hash -> node name). */
  readonly acked = new Map<string, string>();

  constructor(count: number, history: History, rng: Rng) {
    this.accounts = Array.from({ length: count }, (_, i) => ({
      key: keyPairFromMnemonic(DEV_MNEMONIC, FIRST_INDEX + i),
      nonce: 0,
      busy: false,
      stuckSince: 0,
      unsure: null,
    }));
    this.history = history;
    this.rng = rng;
  }

  /** Funds every load account from index 9 through `node` at `url` and waits until the node shows the funds. */
  async fund(node: string, url: string): Promise<void> {
    const funder = keyPairFromMnemonic(DEV_MNEMONIC, 9);
    const acct = await call(`${url}/api/chain/account/${funder.address}`);
    let nonce = Number(acct.body?.nextNonce ?? 0);
    for (const a of this.accounts) {
      const tx = buildTx(TRANSFER, { to: a.key.address, amount: '10000000000', fee: '1000' }, funder, { nonce: nonce++ });
      const ans = await call(`${url}/api/chain/tx`, { body: tx });
      this.history.record('fund', { node, hash: tx.hash, to: a.key.address, status: ans.status, body: ans.body });
      if (ans.status !== 200) throw new Error(`funding ${a.key.address} failed: ${ans.status} ${JSON.stringify(ans.body)}`);
    }
    for (const a of this.accounts) {
      for (let i = 0; ; i++) {
        const ans = await call(`${url}/api/chain/account/${a.key.address}`);
        if (ans.status === 200 && BigInt(String(ans.body?.balance ?? '0')) > 0n) break;
        if (i > 240) throw new Error(`funding of ${a.key.address} not mined within 2 minutes`);
        await sleep(500);
      }
    }
  }

  /** Submits `rate` transfers a second to the node `pick()` names (name and URL) until stopped. */
  async run(rate: number, pick: () => { name: string; url: string } | null): Promise<void> {
    if (rate <= 0) return;
    const gapMs = 1000 / rate;
    let next = Date.now();
    while (!this.stopped) {
      next += gapMs;
      const free = this.accounts.filter((a) => !a.busy);
      const target = pick();
      if (free.length && target) void this.submit(this.rng.pick(free), target.name, target.url);
      await sleep(Math.max(0, next - Date.now()));
    }
  }

  /**
   * Submits one transfer to `node` now and resolves once it is answered: a kill right after it
   * tries the window where an acknowledged transaction exists only on that node.
   */
  async submitNow(node: string, url: string): Promise<void> {
    const free = this.accounts.filter((a) => !a.busy);
    if (free.length) await this.submit(this.rng.pick(free), node, url);
  }

  private async submit(a: Account, node: string, url: string): Promise<void> {
    a.busy = true;
    try {
      if (a.stuckSince && Date.now() - a.stuckSince > 60_000) {
        const acct = await call(`${url}/api/chain/account/${a.key.address}`);
        if (acct.status === 200) {
          this.history.record('nonce_reset', { account: a.key.address, from: a.nonce, to: Number(acct.body?.nonce), node });
          a.nonce = Number(acct.body?.nonce);
          a.stuckSince = 0;
          a.unsure = null;
        }
      }
      const to = this.rng.pick(this.accounts.filter((x) => x !== a)).key.address;
      const tx = a.unsure ?? buildTx(TRANSFER, { to, amount: '1', fee: '1000' }, a.key, { nonce: a.nonce });
      const sent = Date.now();
      const ans = await call(`${url}/api/chain/tx`, { body: tx, timeoutMs: 10_000 });
      const code = typeof ans.body?.code === 'string' ? ans.body.code : undefined;
      this.history.record('tx', {
        node,
        hash: tx.hash,
        account: a.key.address,
        nonce: tx.nonce,
        status: ans.status,
        code,
        error: ans.error,
        body: ans.body,
        ms: Date.now() - sent,
      });
      if (ans.status === 200) this.acked.set(tx.hash, node);
      if (ans.status === 200 || (a.unsure && code === 'DUPLICATE_TX')) {
        a.nonce = tx.nonce + 1;
        a.stuckSince = 0;
        a.unsure = null;
      } else if (ans.status === 0 || ans.status >= 500) {
        // Unknown outcome (the node may have admitted it): the same transaction goes again, so two
        // transactions with one nonce never race each other.
        a.unsure = tx;
      } else if (code === 'STALE_NONCE' || code === 'DUPLICATE_TX') {
        a.unsure = null;
        const acct = await call(`${url}/api/chain/account/${a.key.address}`);
        if (acct.status === 200) a.nonce = Math.max(a.nonce, Number(acct.body?.nextNonce));
      } else if (code === 'NONCE_GAP') {
        if (!a.stuckSince) a.stuckSince = Date.now();
      } else a.unsure = null;
    } finally {
      a.busy = false;
    }
  }

  /** Stops submitting (submissions in flight finish). */
  stop(): void {
    this.stopped = true;
  }
}
