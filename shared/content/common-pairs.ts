/**
 * A longest common subsequence over any items (rich-text-diff.ts pairs blocks, then words, with it):
 * its own file because it knows nothing of rich text.
 */

/** Past this many cells the LCS is skipped: the middle is shown as deleted then inserted. */
const MAX_LCS_CELLS = 4_000_000;

/**
 * Index pairs of a longest common subsequence of `a` and `b` under `equal`, in order. A common
 * prefix and suffix are matched first (the usual edit touches a little of a long value).
 */
export function commonPairs<T>(a: readonly T[], b: readonly T[], equal: (x: T, y: T) => boolean): [number, number][] {
  let head = 0;
  while (head < a.length && head < b.length && equal(a[head] as T, b[head] as T)) head += 1;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && equal(a[a.length - 1 - tail] as T, b[b.length - 1 - tail] as T)) tail += 1;
  const pairs: [number, number][] = [];
  for (let i = 0; i < head; i += 1) pairs.push([i, i]);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n > 0 && m > 0 && n * m <= MAX_LCS_CELLS) {
    // lengths[i][j]: LCS of a[head+i…] and b[head+j…], in one flat array.
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i -= 1) {
      for (let j = m - 1; j >= 0; j -= 1) {
        lengths[i * width + j] = equal(a[head + i] as T, b[head + j] as T) ? (lengths[(i + 1) * width + j + 1] as number) + 1 : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
      }
    }
    for (let i = 0, j = 0; i < n && j < m; ) {
      if (equal(a[head + i] as T, b[head + j] as T)) {
        pairs.push([head + i, head + j]);
        i += 1;
        j += 1;
      } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) i += 1;
      else j += 1;
    }
  }
  for (let k = tail; k > 0; k -= 1) pairs.push([a.length - k, b.length - k]);
  return pairs;
}
