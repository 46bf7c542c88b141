/**
 * Memory and restart flat in the number of accounts: a chain of N transfers to N new accounts is
 * built once, then a fresh process opens the node on it (test/bench/nodeChild.ts) with the
 * default account cache and with every account kept (`accountCache: all`, which reads every
 * account row at restart, as the node did before accounts were cached). Reports open time, RSS,
 * heap and what holds it (the consensus state `accounts`, the address-history counts). Restart
 * is set, by CPU time, against a chain of as many transactions as the log check at open reads
 * (20,000) opened in the same run: past that window the open must not grow with the chain.
 * `npm run bench -- --only accounts [--accounts 1000000]` (default 200,000).
 */
import { DEFAULT_VERIFY_TXS } from '../../node/store/logIntegrity.ts';
import { tempDir } from '../helpers/testChain.ts';
import { build, child, explain, type ChildReport } from './replay.ts';
import { addRow } from './table.ts';

const held = (r: ChildReport) => `accounts ${r.heldByMiB.accounts ?? 0} MiB, counts ${r.heldByMiB.addressHistory ?? 0} MiB`;

const opened = (r: ChildReport) => `opened in ${r.openSeconds.toFixed(2)} s (CPU ${r.openCpuSeconds.toFixed(2)} s), RSS ${r.rssMiB} MiB`;

/** A restart of a chain no longer than the window the log check at open reads. */
async function smallRestart(): Promise<ChildReport> {
  const tmp = tempDir('ombra-bench-accounts-');
  try {
    await build(tmp.dir, DEFAULT_VERIFY_TXS, 500, true);
    await child(tmp.dir, 'restart');
    return await child(tmp.dir, 'restart');
  } finally {
    tmp.cleanup();
  }
}

/** One chain size: the default cache against every account kept, and a restart against a chain of the check's window. */
async function accountsAt(n: number, small: ChildReport): Promise<void> {
  const tmp = tempDir('ombra-bench-accounts-');
  try {
    console.log(`accounts, ${n} transfers to ${n} new accounts:`);
    await build(tmp.dir, n, 500, true);
    // Each restart twice: the first warms the OS page cache, the second is reported.
    await child(tmp.dir, 'restart');
    const cached = await child(tmp.dir, 'restart');
    await child(tmp.dir, 'restart', undefined, 'all');
    const all = await child(tmp.dir, 'restart', undefined, 'all');
    console.log(`  default account cache: opened in ${cached.openSeconds.toFixed(2)} s; ${explain(cached)}`);
    console.log(`  every account kept:    opened in ${all.openSeconds.toFixed(2)} s; ${explain(all)}`);
    console.log(`  restart: ${opened(cached)}; a chain of ${DEFAULT_VERIFY_TXS} transfers: ${opened(small)}`);
    addRow({
      measure: `restart on ${n.toLocaleString('en')} accounts and transactions: open CPU time against a chain of ${DEFAULT_VERIFY_TXS.toLocaleString('en')} transactions`,
      node: opened(cached),
      baseline: opened(small),
      ratio: cached.openCpuSeconds / small.openCpuSeconds,
      goal: 'near 1 (flat in the chain; <= 10 s at 10M)',
    });
    // Replay with full verification, the cache against every account kept (every block names 500
    // new accounts: the cache reads each block's before applying it).
    const replayCached = await child(tmp.dir, 'replay');
    const replayAll = await child(tmp.dir, 'replay', undefined, 'all');
    const rate = (r: ChildReport) => n / r.replaySeconds;
    console.log(
      `  replay: cached ${rate(replayCached).toFixed(0)} tx/s (CPU ${replayCached.replayCpuSeconds.toFixed(1)} s, RSS after ${replayCached.rssMiB} MiB), every account kept ${rate(replayAll).toFixed(0)} tx/s (CPU ${replayAll.replayCpuSeconds.toFixed(1)} s, RSS after ${replayAll.rssMiB} MiB)`,
    );
    addRow({
      measure: `replay of ${n.toLocaleString('en')} transfers to new accounts, account cache vs every account kept`,
      node: `${rate(replayCached).toFixed(0)} tx/s, CPU ${replayCached.replayCpuSeconds.toFixed(1)} s`,
      baseline: `every account kept: ${rate(replayAll).toFixed(0)} tx/s, CPU ${replayAll.replayCpuSeconds.toFixed(1)} s`,
      ratio: rate(replayCached) / rate(replayAll),
      goal: 'near 1',
    });
    addRow({
      measure: `restart on ${n.toLocaleString('en')} accounts: RSS, heap, open time`,
      node: `${cached.rssMiB} MiB RSS, heap ${cached.heapUsedMiB} MiB (${held(cached)}), opened in ${cached.openSeconds.toFixed(2)} s`,
      baseline: `every account kept: ${all.rssMiB} MiB RSS, heap ${all.heapUsedMiB} MiB (${held(all)}), opened in ${all.openSeconds.toFixed(2)} s`,
      ratio: cached.rssMiB / all.rssMiB,
      goal: 'flat in accounts',
    });
  } finally {
    tmp.cleanup();
  }
}

/** Restart memory and time at each chain size. */
export async function accountsBench(sizes: readonly number[]): Promise<void> {
  const small = await smallRestart();
  for (const n of sizes) await accountsAt(n, small);
}
