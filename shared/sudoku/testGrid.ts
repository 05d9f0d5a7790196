// Test support: a board from one line of text (the 81-character form of published collections, any size).
// Not the format reader of the engine (that lives in formats.ts); tests use this to state positions briefly.
import { DIGIT_SYMBOLS, defaultBox, shapeOf } from './grid.ts';
import type { Grid } from './grid.ts';

/** `.` or `0` empty, then 1-9, A, B... for 10, 11...; the side is the square root of the length, the box its usual shape unless given. */
export function gridFromLine(line: string, box?: [number, number]): Grid {
  const text = line.replace(/\s+/g, '');
  const n = Math.round(Math.sqrt(text.length));
  if (n * n !== text.length) throw new Error(`a board line needs a square number of characters, got ${text.length}`);
  const [br, bc] = box ?? defaultBox(n);
  const shape = shapeOf(br, bc);
  if (shape.size !== n) throw new Error(`box ${br}x${bc} does not fit a ${n}x${n} board`);
  const cells = new Uint8Array(n * n);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i].toUpperCase();
    if (ch === '.' || ch === '0') continue;
    const v = DIGIT_SYMBOLS.indexOf(ch) + 1;
    if (v < 1 || v > n) throw new Error(`'${text[i]}' is not a digit of a ${n}x${n} board`);
    cells[i] = v;
  }
  return { ...shape, cells };
}

export function gridToLine(grid: Grid): string {
  let s = '';
  for (const v of grid.cells) s += v === 0 ? '.' : DIGIT_SYMBOLS[v - 1];
  return s;
}
