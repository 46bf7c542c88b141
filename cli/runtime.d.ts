/** Types of cli/runtime.js (plain JavaScript so an old Node can parse it). */

/** The oldest Node major version that runs the node. */
export const NODE_MAJOR: number;
/** One line on why `version` cannot run the node and how to get one that can; null when it can. */
export function runtimeProblem(version: string): string | null;
/** Stops this process (SIGTERM to itself) when its npm launcher goes away; null when not under npm. */
export function stopWithLauncher(opts?: { env?: Record<string, string | undefined>; everyMs?: number }): (() => void) | null;
/** Sets NODE_COMPILE_CACHE in `env` to the cache enableCompileCache() opened, unless the operator chose. */
export function shareCompileCache(opened: { directory?: string }, env?: Record<string, string | undefined>): void;
/** The glibc malloc tunables `ombra start` runs with (fixed mmap and trim thresholds). */
export const MALLOC_TUNABLES: string;
/** The V8 young-generation cap `ombra start` runs with. */
export const SEMI_SPACE_FLAG: string;
/** How to re-execute `ombra start` with MALLOC_TUNABLES and SEMI_SPACE_FLAG; null when there is nothing to change. */
export function serveRuntime(
  env: Record<string, string | undefined>,
  execArgv: readonly string[],
  glibc: string | undefined,
): { env: Record<string, string | undefined>; execArgv: string[] } | null;
