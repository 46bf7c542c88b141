#!/usr/bin/env node
// npm links this file as `ombra`; Node 24 (from the `node` dependency) runs the TypeScript.
// Compiled modules are cached on disk first (Node's compile cache, in its default place unless
// NODE_COMPILE_CACHE names one; NODE_DISABLE_COMPILE_CACHE turns it off): type stripping and
// compiling are skipped on later runs, so a start serves in ~440 ms instead of ~650 here.
// Entries are checked against the sources' hashes: a changed file is compiled afresh.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./main.ts');
