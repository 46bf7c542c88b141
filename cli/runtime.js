// What cli/bin.js does before it loads any TypeScript. Plain JavaScript that Node 18 parses, so
// an older Node reads it and says what is wrong instead of failing on a missing API.

/** The oldest Node major version that runs the node (type stripping, the compile cache...). */
export const NODE_MAJOR = 24;

/**
 * One line saying why this Node cannot run the node and how to get one that can, or null when
 * `version` (like process.versions.node) is recent enough.
 * @param {string} version
 * @returns {string | null}
 */
export function runtimeProblem(version) {
  const major = Number(String(version).split('.')[0]);
  if (Number.isInteger(major) && major >= NODE_MAJOR) return null;
  return (
    `ombra needs Node ${NODE_MAJOR} or newer; this is Node ${version}. ` +
    `Run it as \`npx ombra ...\` or \`npm start\` from the project (they use its own Node ${NODE_MAJOR}, ` +
    `installed by npm ci), or install Node ${NODE_MAJOR} (https://nodejs.org).`
  );
}

/**
 * Under npm (`npm start`, `npx ombra ...`) the command runs below `sh -c`, which neither execs it
 * nor passes on the SIGTERM npm forwards: the shell dies and leaves this process running. When the
 * process that launched it is gone (the parent id changes: it was re-parented) it stops as if it
 * had received SIGTERM. Outside npm nothing is watched (`nohup ombra start &` outlives its shell).
 * @param {{ env?: Record<string, string | undefined>, everyMs?: number }} [opts]
 * @returns {(() => void) | null} stops watching; null when not launched by npm
 */
export function stopWithLauncher(opts = {}) {
  const env = opts.env ?? process.env;
  if (env.npm_lifecycle_event === undefined && env.npm_command === undefined) return null;
  const launcher = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === launcher) return;
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, opts.everyMs ?? 500);
  // Never what keeps a short command alive.
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Hands the compile cache that `enableCompileCache()` opened on to the node's worker threads
 * (signature verification) and child processes: they read NODE_COMPILE_CACHE, which
 * enableCompileCache does not set. A worker then starts without type-stripping and compiling its
 * modules again, about half its start-up CPU (~40 of ~80 ms), which every catch-up, sync, replay
 * and audit pays per worker. An operator's own choice (set or disabled) stays.
 * @param {{ directory?: string }} opened what enableCompileCache() answered
 * @param {Record<string, string | undefined>} [env]
 */
export function shareCompileCache(opened, env = process.env) {
  if (!opened.directory || env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  env.NODE_COMPILE_CACHE = opened.directory;
}

/**
 * glibc's malloc settings a serving node runs with: big allocations always mapped on their own
 * (and unmapped when freed), and free memory at the top of the heap given back past 1 MiB. By
 * default glibc raises its mmap threshold to the largest block freed so far (up to 32 MiB), and its
 * trim threshold to twice that: after one large sync answer or write batch, every later block
 * below that size comes from the main heap, and the holes freed between live blocks are never
 * returned (an authority held 213 MiB in its main arena with 28 MiB in use after 16 minutes, all
 * of it given back by malloc_trim; docs/memory.md). Fixed thresholds turn the dynamic raise off.
 */
export const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=262144:glibc.malloc.trim_threshold=1048576';

/**
 * V8's young generation for a serving node: each semi-space at most 16 MiB. By default V8 grows
 * it to 64 MiB a semi-space under a node's steady allocation (128 MiB of RSS for garbage that dies
 * young; docs/memory.md), and gives it back only when its memory reducer runs.
 */
export const SEMI_SPACE_FLAG = '--max-semi-space-size=16';

/**
 * How to re-execute `ombra start` so the process runs with MALLOC_TUNABLES (on glibc) and
 * SEMI_SPACE_FLAG, both read only when a process starts; null when there is nothing to change:
 * each is already set (by a previous exec or the operator: any `glibc.malloc.*` tunable, any
 * semi-space flag in the arguments or NODE_OPTIONS), or OMBRA_RUNTIME_TUNING=0 turns both off.
 * @param {Record<string, string | undefined>} env
 * @param {readonly string[]} execArgv Node's own arguments (process.execArgv)
 * @param {string | undefined} glibc the running glibc's version (process.report's glibcVersionRuntime)
 * @returns {{ env: Record<string, string | undefined>, execArgv: string[] } | null}
 */
export function serveRuntime(env, execArgv, glibc) {
  if (env.OMBRA_RUNTIME_TUNING === '0') return null;
  const current = env.GLIBC_TUNABLES ?? '';
  const malloc = Boolean(glibc) && !current.includes('glibc.malloc.');
  const semi = ![...execArgv, env.NODE_OPTIONS ?? ''].some((a) => a.includes('semi-space-size'));
  if (!malloc && !semi) return null;
  return {
    env: malloc ? { ...env, GLIBC_TUNABLES: current ? `${current}:${MALLOC_TUNABLES}` : MALLOC_TUNABLES } : { ...env },
    execArgv: semi ? [...execArgv, SEMI_SPACE_FLAG] : [...execArgv],
  };
}
