// Strict objects for hand-written files (the study config): an unknown key is an error naming the nearest known key.
import { z } from 'zod';

/** Edit distance with adjacent transpositions (optimal string alignment): "recruitmnet" is 1 from "recruitment". */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The known key nearest to `key` (case aside), if it is near enough to be a slip: at most a third of its letters off (and at least 1 allowed). */
export function nearestKey(key: string, known: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== null && bestDistance <= Math.max(1, Math.floor(Math.max(key.length, best.length) / 3)) ? best : null;
}

/** "unknown key recruitmnet at top level; did you mean recruitment?" (one clause per key; `at top level` only at the root). */
export function unknownKeysMessage(keys: readonly string[], known: readonly string[], path: readonly PropertyKey[]): string {
  return keys
    .map((key) => {
      const near = nearestKey(key, known);
      return `unknown key ${key}${path.length ? '' : ' at top level'}${near ? `; did you mean ${near}?` : `; known keys: ${known.join(', ')}`}`;
    })
    .join('; ');
}

/** z.strictObject whose unknown-key error names the nearest known key. */
export function strictObject<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownKeysMessage(issue.keys, known, issue.path ?? []) : undefined),
  });
}
