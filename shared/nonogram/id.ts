// Stable puzzle ids derived from the clues alone: `n<width>x<height>-<12 hex digits>`.
//
// The hash is cyrb53-style (two 32-bit multiply-xorshift lanes over the UTF-16 code units of a
// canonical text of the clues), pure TypeScript so browser, server and CLI agree. 48 bits make a
// collision among a million puzzles of one size unlikely (~2e-3); ids are names, not a security
// boundary. Changing the canonical text or the hash changes every id: don't.
import type { Clues } from './grid.ts';

/** Canonical text of the clues: `WxH|rows|cols`, runs joined by '.', lines by ','. */
export function canonicalClues(clues: Clues): string {
  const lines = (ls: number[][]) => ls.map((l) => l.join('.')).join(',');
  return `${clues.cols.length}x${clues.rows.length}|${lines(clues.rows)}|${lines(clues.cols)}`;
}

/** A 53-bit string hash as two unsigned 32-bit halves [high 21 bits, low 32 bits]. */
export function hash53(text: string, seed = 0): [number, number] {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [(h2 & 0x1fffff) >>> 0, h1 >>> 0];
}

/** The puzzle's id, e.g. `n10x10-3fa2c81b09d4`: same clues, same id, everywhere. */
export function puzzleId(clues: Clues): string {
  const [high, low] = hash53(canonicalClues(clues));
  const hex = (high & 0xffff).toString(16).padStart(4, '0') + low.toString(16).padStart(8, '0');
  return `n${clues.cols.length}x${clues.rows.length}-${hex}`;
}
