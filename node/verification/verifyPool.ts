/**
 * Signature verification spread over worker threads, for replay and audit. Every worker runs
 * core's verifySignature, so the verdict is the same as on every other path.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { packBlocks, type BlockBytes, type BlockVerdicts } from './blockCheckJob.ts';
import { packJob, type SignedItem } from './verifyJob.ts';

/** A worker's answer: the failed positions of a signature job, or a block check's verdicts. */
type Answer = { id: number; bad: number[] } | ({ id: number } & BlockVerdicts);

/** Pool options. */
export interface VerifyPoolOptions {
  workers: number;
}

/** Default: one worker per core. */
const defaultVerifyPoolOptions = (): VerifyPoolOptions => ({ workers: Math.max(1, availableParallelism()) });

/** A pool of verification workers. */
export class VerifyPool {
  private readonly workers: Worker[];
  private readonly waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private turn = 0;
  private closing = false;

  constructor(opts: Partial<VerifyPoolOptions> = {}) {
    const { workers } = { ...defaultVerifyPoolOptions(), ...opts };
    this.workers = Array.from({ length: workers }, () => {
      const w = new Worker(new URL('./verifyWorker.ts', import.meta.url));
      w.on('message', (m: Answer) => {
        this.waiting.get(m.id)?.resolve(m);
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

  private async run(items: readonly SignedItem[]): Promise<number[]> {
    const answer = await this.post((id) => packJob(id, items));
    return 'bad' in answer ? answer.bad : [];
  }

  /** Sends the job `make` builds to the next worker; the buffers `moved` names are moved, not copied. */
  private post<J>(make: (id: number) => J, moved: (job: J) => ArrayBuffer[] = () => []): Promise<Answer> {
    const id = this.nextId++;
    const w = this.workers[this.turn++ % this.workers.length];
    const job = make(id);
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage(job, moved(job));
    });
  }

  /**
   * Parses and checks stored blocks from their bytes (node/verification/blockCheckJob.ts), a share
   * of them in each worker: per block, whether every signature passed (or was assumed) and the
   * bytes its transactions take when their stateless checks passed (-1 when not).
   */
  async checkBlocks(blocks: readonly BlockBytes[]): Promise<BlockVerdicts> {
    const n = this.workers.length;
    const size = Math.ceil(blocks.length / n) || 1;
    const parts: Promise<Answer>[] = [];
    for (let start = 0; start < blocks.length; start += size) {
      const share = blocks.slice(start, start + size);
      parts.push(
        this.post(
          (id) => packBlocks(id, share),
          (job) => [job.bytes.buffer],
        ),
      );
    }
    const out: BlockVerdicts = { signatures: new Uint8Array(blocks.length), txBytes: new Float64Array(blocks.length).fill(-1) };
    let at = 0;
    for (const answer of await Promise.all(parts)) {
      if ('bad' in answer) throw new Error('verification worker answered a block check with a signature verdict');
      out.signatures.set(answer.signatures, at);
      out.txBytes.set(answer.txBytes, at);
      at += answer.signatures.length;
    }
    return out;
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
