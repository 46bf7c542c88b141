/**
 * CPU time by kind of thread, from /proc/self/task (Linux): the main thread, V8's helper
 * threads (concurrent marking, compilation), the libuv pool (LevelDB reads, writes and
 * compaction) and worker threads. Threads that ended in between (a verify pool closed) are
 * counted from the process total.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Seconds of CPU by thread, keyed by thread id, with each thread's kind. */
type Snapshot = Map<string, { kind: string; seconds: number }>;

// /proc counts CPU in clock ticks, USER_HZ: 100 a second on Linux.
const clockTicks = 100;

const KINDS: [RegExp, string][] = [
  [/^MainThread$/, 'main'],
  [/^V8Worker$/, 'v8'],
  [/^libuv-worker$/, 'libuv'],
  [/^WorkerThread$/, 'workers'],
];

function snapshot(): Snapshot {
  const out: Snapshot = new Map();
  let tasks: string[] = [];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const comm = readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(f[11]) + Number(f[12])) / clockTicks;
      out.set(tid, { kind: KINDS.find(([re]) => re.test(comm))?.[1] ?? 'other', seconds });
    } catch {
      // The thread ended while being read.
    }
  }
  return out;
}

/**
 * With no argument, a snapshot to pass back later; with one, the seconds of CPU each kind of
 * thread spent since it (`total`: the process's CPU over the same span, so threads that ended
 * count as `ended`).
 */
export function threadCpu(): Snapshot;
export function threadCpu(since: Snapshot, total: number): Record<string, number>;
export function threadCpu(since?: Snapshot, total?: number): Snapshot | Record<string, number> {
  const now = snapshot();
  if (!since || total === undefined) return now;
  const out: Record<string, number> = {};
  let counted = 0;
  for (const [tid, t] of now) {
    const spent = t.seconds - (since.get(tid)?.seconds ?? 0);
    out[t.kind] = (out[t.kind] ?? 0) + spent;
    counted += spent;
  }
  if (total - counted > 0.005) out.ended = total - counted;
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] * 100) / 100;
  return out;
}
