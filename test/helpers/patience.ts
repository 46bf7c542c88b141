/**
 * How long a test waits for a condition before it calls it failed: the limit each test names,
 * times OMBRA_TEST_PATIENCE (default 4). A limit is failure detection, never a performance
 * check (those are benchmarks): a condition met in 2 s on a quiet machine took 20-40 s in a run
 * beside two CPU burners and a load of 25, and a test that passes returns as soon as it holds.
 */
const PATIENCE = Number(process.env.OMBRA_TEST_PATIENCE ?? 4);

/** `ms` stretched by the run's patience. */
export function patient(ms: number): number {
  return ms * (Number.isFinite(PATIENCE) && PATIENCE > 0 ? PATIENCE : 4);
}
