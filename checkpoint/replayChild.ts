/**
 * The child process that replays the chain for a checkpoint's background verification
 * (checkpoint/checkpointReplay.ts), as the verifier drives it (checkpoint/checkpointVerifier.ts):
 * forked at a lowered CPU priority, sent batches of blocks, its answers awaited one at a time. An
 * answer that arrives before it is asked for waits its turn, and the child's exit reads as one
 * more answer, so a crash mid-replay ends the wait instead of hanging it (a crash is no verdict on
 * the checkpoint).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ReplayAnswer, ReplayMessage } from './checkpointReplay.ts';

/** The replay's CPU priority (nice): below the node's serving, above idle work. */
const VERIFY_NICE = 10;

/** An answer of the child, or its exit. */
type Answer = ReplayAnswer | { type: 'exit'; message: string };

/** A running replay child. */
export class ReplayChild {
  private readonly child: ChildProcess;
  /** Callers awaiting the next answer, in order. */
  private readonly waiting: ((a: Answer) => void)[] = [];
  /** Answers that arrived before anyone asked for them. */
  private readonly early: Answer[] = [];

  /** Forks the replay over `scratchDir` (its LevelDB) and the checkpoint `file`. */
  constructor(scratchDir: string, file: string) {
    this.child = fork(fileURLToPath(new URL('./checkpointReplay.ts', import.meta.url)), [scratchDir, file], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      // Below serving, not starved: the node serves reads only once verified (unless
      // --serve-unverified), and at nice 19 a busy machine left it minutes without CPU (seen in CI).
      if (this.child.pid !== undefined) setPriority(this.child.pid, VERIFY_NICE);
    } catch {
      // Lowering priority may be refused (a container's policy): the replay still runs.
    }
    this.child.on('message', (m: ReplayAnswer) => this.deliver(m));
    this.child.on('exit', (code, signal) => this.deliver({ type: 'exit', message: `the replay exited (${signal ?? code})` }));
  }

  private deliver(a: Answer): void {
    const w = this.waiting.shift();
    if (w) w(a);
    else this.early.push(a);
  }

  /** The child's next answer, in order; an exit before an answer reads as an error answer. */
  next(): Promise<Answer> {
    const a = this.early.shift();
    return a ? Promise.resolve(a) : new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Sends the child a message (a batch of blocks, or the end). */
  send(m: ReplayMessage): void {
    this.child.send(m);
  }

  /** Ends the child (the replay resumes from its scratch dir at the next start). */
  kill(): void {
    this.child.kill('SIGTERM');
  }
}
