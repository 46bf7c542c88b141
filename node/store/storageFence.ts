/**
 * The data dir's write fence. A LevelDB write that fails on an I/O error (a full disk above all:
 * `IO error: <dir>/000123.log: No space left on device`) leaves its write-ahead log in a state no
 * later write may build on: the failed record may be half on disk while LevelDB's log writer
 * counts it as written, so every record appended after it sits at the wrong offset and is dropped
 * as damage on the next open (measured: a node that filled its disk and went on writing once
 * space returned opened at the block before the fault, refusing to start until a repair). So the
 * first such failure stops every later write of the process: each is refused at once with
 * `DISK_FULL`, nothing more reaches LevelDB, and the half-written record is a torn tail that
 * LevelDB drops without a word on the next open (the failed write was never acknowledged). The
 * node reports the fault once (one error line naming the cause and the data dir) and in
 * GET /api/health; once space is back, a fresh open of the store (launch/storageRecovery.ts relaunches
 * the node in the same process) finds every acknowledged write.
 */
import { ChainError, errorChain, errorCode, errorMessage } from '../../core/errors.ts';

/** What stopped the writes. */
export interface StorageFault {
  /** The cause in an operator's words: "no space left on device", or the OS error LevelDB gave. */
  cause: string;
  /** The data dir whose disk failed. */
  dataDir: string;
  /** LevelDB's own message (it names the file). */
  error: string;
  /** When the first write failed (epoch ms). */
  since: number;
}

/** The OS errors of a write that LevelDB reports as `IO error: <file>: <strerror>`. */
const CAUSES: [RegExp, string][] = [
  [/No space left on device|ENOSPC/i, 'no space left on device'],
  [/Disk quota exceeded|EDQUOT/i, 'disk quota exceeded'],
  [/Read-only file system|EROFS/i, 'read-only file system'],
  [/Input\/output error|EIO\b/i, 'input/output error'],
];

/** The operator's name for a failed write's cause; null when `e` is no I/O failure (a bug, a closed store). */
function writeFaultCause(e: unknown): string | null {
  for (const x of errorChain(e)) {
    const message = typeof x === 'object' && x !== null && 'message' in x && typeof x.message === 'string' ? x.message : '';
    const code = errorCode(x);
    for (const [pattern, cause] of CAUSES) if (pattern.test(message) || (code !== undefined && pattern.test(code))) return cause;
    if (code === 'LEVEL_IO_ERROR' || /^IO error: /.test(message)) return message.replace(/^IO error: .*: /, '') || 'I/O error';
  }
  return null;
}

/** Guards every write of one store: the first I/O failure stops the rest. */
export class StorageFence {
  readonly dataDir: string;
  private tripped: StorageFault | null = null;
  /** Called once, when the first write fails (the node logs it). */
  onTrip: (fault: StorageFault) => void = () => undefined;

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  /** The fault that stopped writes; null while writes go through. */
  get fault(): StorageFault | null {
    return this.tripped;
  }

  /** The refusal of a write while fenced (503 DISK_FULL at the API). */
  refusal(): ChainError {
    const f = this.tripped;
    return new ChainError(
      'DISK_FULL',
      f
        ? `writes are stopped: the data dir ${f.dataDir} failed a write (${f.cause}); free space: the node reopens its store once its disk takes writes`
        : 'writes are stopped',
    );
  }

  /** Throws the refusal while fenced. */
  check(): void {
    if (this.tripped) throw this.refusal();
  }

  /** Runs a LevelDB write unless fenced; an I/O failure fences the store and becomes the refusal. */
  async guard<T>(write: () => Promise<T>): Promise<T> {
    this.check();
    try {
      return await write();
    } catch (e) {
      const cause = writeFaultCause(e);
      if (cause === null) throw e;
      if (!this.tripped) {
        this.tripped = { cause, dataDir: this.dataDir, error: errorMessage(e), since: Date.now() };
        this.onTrip(this.tripped);
      }
      throw this.refusal();
    }
  }
}

/** The write methods of a LevelDB handle (abstract-level's private API: every sublevel's writes end in the root's). */
interface Writable {
  _put(...args: unknown[]): Promise<unknown>;
  _del(...args: unknown[]): Promise<unknown>;
  _batch(...args: unknown[]): Promise<unknown>;
  _clear(...args: unknown[]): Promise<unknown>;
  _chainedBatch(): { _write(...args: unknown[]): Promise<unknown> };
}

/**
 * Routes every write of a root LevelDB handle through `fence`: puts, deletes, array and chained
 * batches and clears, its sublevels' included (they forward to the root).
 */
export function fenceWrites(db: object, fence: StorageFence): void {
  const w = db as Writable;
  for (const name of ['_put', '_del', '_batch', '_clear'] as const) {
    const real = w[name].bind(db);
    w[name] = (...args: unknown[]) => fence.guard(() => real(...args));
  }
  const chained = w._chainedBatch.bind(db);
  w._chainedBatch = () => {
    const batch = chained();
    const write = batch._write.bind(batch);
    batch._write = (...args: unknown[]) => fence.guard(() => write(...args));
    return batch;
  };
}
