/**
 * Signature verification spread over worker threads, for replay and audit. Every worker runs
 * core's verifySignature, so the verdict is the same as on every other path.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { packJob, type SignedItem } from './verifyJob.ts';

/** Pool options. */
export interface VerifyPoolOptions {
  workers: number;
}

/** Default: one worker per core. */
const defaultVerifyPoolOptions = (): VerifyPoolOptions => ({ workers: Math.max(1, availableParallelism()) });

/** A pool of verification workers. */
export class VerifyPool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (bad: number[]) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private turn = 0;
  private closing = false;

  constructor(opts: Partial<VerifyPoolOptions> = {}) {
    const { workers } = { ...defaultVerifyPoolOptions(), ...opts };
    this.workers = Array.from({ length: workers }, () => {
      const w = new Worker(new URL('./verifyWorker.ts', import.meta.url));
      w.on('message', (m: { id: number; bad: number[] }) => {
        this.waiting.get(m.id)?.resolve(m.bad);
        this.waiting.delete(m.id);
      });
      // A crashed worker must fail its callers, never leave them waiting forever.
      const failAll = (e: Error) => {
        for (const p of this.waiting.values()) p.reject(e);
        this.waiting.clear();
      };
      w.on('error', failAll);
      w.on('exit', (code) => {
        if (code !== 0 && !this.closing) failAll(new Error(`verification worker exited with code ${code}`));
      });
      return w;
    });
  }

  private run(items: readonly SignedItem[]): Promise<number[]> {
    const id = this.nextId++;
    const w = this.workers[this.turn++ % this.workers.length];
    const job = packJob(id, items);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage(job);
    });
  }

  /**
   * Verifies the signatures of `txs` (hash signed by publicKey); resolves with the positions of
   * the ones that fail, ascending. Malformed fields simply fail.
   */
  async verifyTxs(txs: readonly SignedItem[]): Promise<number[]> {
    const n = this.workers.length;
    const size = Math.ceil(txs.length / n) || 1;
    const parts: Promise<number[]>[] = [];
    for (let start = 0; start < txs.length; start += size)
      parts.push(this.run(txs.slice(start, start + size)).then((bad) => bad.map((i) => i + start)));
    return (await Promise.all(parts)).flat();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
