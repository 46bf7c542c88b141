/** Offsets worth asking a list of `n` for: the ends, past the end, and a spread in between. */
export function pageOffsets(n: number): number[] {
  const out = new Set([0, 1, Math.max(0, n - 1), n, n + 3]);
  for (let i = 1; i < 8; i++) out.add(Math.floor((n * i) / 8));
  return [...out];
}
