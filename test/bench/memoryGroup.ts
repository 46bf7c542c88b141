/**
 * A memory limit for the scale run's node processes, as an operator sets one (systemd's
 * `MemoryMax=`): a Linux memory cgroup (v2, or v1's memory controller) made for the run, with the
 * children started inside it. The limit counts the page cache the children read, so the kernel
 * reclaims the clean pages of the tables LevelDB maps (file-backed RSS) when the node's own
 * memory plus those pages reach it; anonymous memory past the limit is killed (OOM), which the
 * bench reports as a failed child. Needs write access to the cgroup tree (root, or a delegated
 * subtree).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A cgroup made for the run, with its limit. */
export interface MemoryGroup {
  /** The limit in MiB. */
  readonly limitMiB: number;
  /** `cgroup v2` or `cgroup v1`. */
  readonly kind: string;
  /** The command and arguments that start `cmd args` inside the group. */
  wrap(cmd: string, args: readonly string[]): [string, string[]];
  /** The group's peak charge (its processes' memory and page cache) in MiB, where the kernel keeps it. */
  peakMiB(): number | null;
  /** How often the group reached its limit and the kernel reclaimed (v1 failcnt, v2 `max` events). */
  reclaims(): number | null;
  /** Removes the group (its processes have exited). */
  close(): void;
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : null);

/** Makes the group `dir` with its limit written to `file`; a group whose limit cannot be set is removed. */
function made(dir: string, file: string, bytes: string): void {
  mkdirSync(dir);
  try {
    writeFileSync(join(dir, file), bytes);
  } catch (e) {
    rmdirSync(dir);
    throw e;
  }
}

/** Makes a memory cgroup of `limitMiB` beside this process's own; throws with the reason when it cannot. */
export function memoryGroup(limitMiB: number): MemoryGroup {
  const bytes = String(Math.round(limitMiB * 2 ** 20));
  const own = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  const name = `ombra-bench-${process.pid}`;
  const v1 = own.find((l) => /^\d+:([^:]*,)?memory(,[^:]*)?:/.test(l));
  let dir: string;
  let kind: string;
  if (v1 && existsSync('/sys/fs/cgroup/memory')) {
    kind = 'cgroup v1';
    dir = join('/sys/fs/cgroup/memory', v1.split(':')[2], name);
    made(dir, 'memory.limit_in_bytes', bytes);
  } else {
    kind = 'cgroup v2';
    const path = own.find((l) => l.startsWith('0::'))?.slice(3);
    if (path === undefined || !read('/sys/fs/cgroup/cgroup.controllers')?.split(' ').includes('memory'))
      throw new Error('--memory-limit: no memory cgroup controller on this machine');
    // A v2 group's processes sit in leaves: the new group goes beside this process's own.
    dir = join('/sys/fs/cgroup', path, '..', name);
    made(dir, 'memory.max', bytes);
  }
  const v2 = kind === 'cgroup v2';
  return {
    limitMiB,
    kind,
    // The shell joins the group and then becomes the command: every page it reads is charged here.
    wrap: (cmd, args) => ['/bin/sh', ['-c', `echo $$ > ${join(dir, 'cgroup.procs')} && exec "$@"`, 'sh', cmd, ...args]],
    peakMiB: () => {
      const peak = read(join(dir, v2 ? 'memory.peak' : 'memory.max_usage_in_bytes'));
      return peak === null ? null : Math.round((Number(peak) / 2 ** 20) * 10) / 10;
    },
    reclaims: () => {
      if (!v2) return Number(read(join(dir, 'memory.failcnt')) ?? Number.NaN);
      const max = /^max (\d+)$/m.exec(read(join(dir, 'memory.events')) ?? '');
      return max ? Number(max[1]) : null;
    },
    close: () => rmdirSync(dir),
  };
}

/**
 * Drops the page cache of every file under `dir` (`dd iflag=nocache`: posix_fadvise DONTNEED),
 * so a child in a memory group reads the store cold, as after a reboot, and the pages it reads
 * are charged to its group, not to whichever process read them before.
 */
export function dropPageCache(dir: string): void {
  spawnSync('sync');
  const walk = (d: string): void => {
    for (const entry of readdirSync(d)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else spawnSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
    }
  };
  walk(dir);
}
