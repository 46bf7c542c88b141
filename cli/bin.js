#!/usr/bin/env node
// npm links this file as `ombra`; Node 24 (from the `node` dependency) runs the TypeScript.
// An older Node gets one plain line instead of a SyntaxError, so nothing above the check may
// need a newer Node (cli/runtime.js is plain JavaScript too).
// Compiled modules are cached on disk first (Node's compile cache, in its default place unless
// NODE_COMPILE_CACHE names one; NODE_DISABLE_COMPILE_CACHE turns it off): type stripping and
// compiling are skipped on later runs, so a start serves in ~440 ms instead of ~650 here.
// Entries are checked against the sources' hashes: a changed file is compiled afresh. The
// verification workers share the cache (cli/runtime.js's shareCompileCache).
import { runtimeProblem, serveRuntime, shareCompileCache, stopWithLauncher } from './runtime.js';

const problem = runtimeProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
// A serving node runs with fixed malloc thresholds and a capped young generation (cli/runtime.js
// serveRuntime): both are read at process start, so set by re-executing in place (same pid, same
// stdio), before anything else has run.
if (process.argv[2] === 'start' && typeof process.execve === 'function') {
  const next = serveRuntime(process.env, process.execArgv, process.report?.getReport().header.glibcVersionRuntime);
  if (next) process.execve(process.execPath, [process.execPath, ...next.execArgv, ...process.argv.slice(1)], next.env);
}
const { enableCompileCache } = await import('node:module');
shareCompileCache(enableCompileCache());
stopWithLauncher();
await import('./main.ts');
