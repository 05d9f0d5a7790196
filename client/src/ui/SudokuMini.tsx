// A small read-only Sudoku board (post-survey pictures, the dashboard's mirror and replay): givens bold, the
// participant's digits in the accent colour, pencil marks small (in a cell with no digit, as the board draws them),
// wrong digits highlighted (red, framed) when asked.
import { DIGIT_SYMBOLS } from '../../../shared/sudoku/grid.ts';

export interface SudokuMiniProps {
  size: number;
  box: readonly [number, number];
  /** Digits in reading order (0 = empty). */
  digits: ArrayLike<number>;
  /** 1 where the cell is a given. */
  given: ArrayLike<number>;
  /** Pencil marks (bit d-1 = digit d); omitted: none drawn. */
  marks?: ArrayLike<number>;
  wrong?: ReadonlySet<number>;
  /** Cell size in px. */
  cell?: number;
  label?: string;
  testId?: string;
}

export function SudokuMini({ size: n, box, digits, given, marks, wrong, cell = 16, label, testId }: SudokuMiniProps) {
  const markCols = Math.ceil(Math.sqrt(n));
  return (
    <div
      className="sudoku-mini"
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ ['--sm-cell' as string]: `${cell}px`, gridTemplateColumns: `repeat(${n}, var(--sm-cell))`, display: 'inline-grid', border: '2px solid #222', background: 'white', fontVariantNumeric: 'tabular-nums' }}
    >
      {Array.from({ length: n * n }, (_, i) => {
        const r = Math.floor(i / n), c = i % n;
        const d = digits[i];
        const m = marks?.[i] ?? 0;
        const bad = wrong?.has(i);
        const style: Record<string, string | number> = {
          width: 'var(--sm-cell)',
          height: 'var(--sm-cell)',
          boxSizing: 'border-box',
          display: 'grid',
          placeItems: 'center',
          fontSize: `calc(var(--sm-cell) * 0.62)`,
          borderRight: c < n - 1 ? ((c + 1) % box[1] === 0 ? '2px solid #222' : '1px solid #ccc') : 'none',
          borderBottom: r < n - 1 ? ((r + 1) % box[0] === 0 ? '2px solid #222' : '1px solid #ccc') : 'none',
          color: given[i] ? '#222' : bad ? '#b42318' : '#2f5bd3',
          fontWeight: given[i] ? 700 : 500,
          background: bad ? '#fde2e2' : given[i] ? '#f1f2f5' : 'white',
          ...(bad ? { boxShadow: 'inset 0 0 0 2px #e5484d' } : {}),
        };
        // The marks drawn: a cell's marks show while it holds no digit (they stay under a digit, as on the board).
        const shown = d ? 0 : m;
        return (
          <div key={i} style={style} data-testid={testId ? `${testId}-cell-${r}-${c}` : undefined} data-digit={d || ''} data-marks={shown ? marksText(shown, n) : ''} data-wrong={bad ? 'true' : undefined}>
            {d ? (
              DIGIT_SYMBOLS[d - 1]
            ) : shown ? (
              <span style={{ display: 'grid', gridTemplateColumns: `repeat(${markCols}, 1fr)`, gridTemplateRows: `repeat(${Math.ceil(n / markCols)}, 1fr)`, width: '100%', height: '100%', fontSize: `calc(var(--sm-cell) * 0.24)`, lineHeight: 1, color: '#777', placeItems: 'center' }}>
                {Array.from({ length: n }, (_, k) => (
                  <span key={k}>{shown & (1 << k) ? DIGIT_SYMBOLS[k] : ''}</span>
                ))}
              </span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

function marksText(m: number, n: number): string {
  let s = '';
  for (let k = 0; k < n; k++) if (m & (1 << k)) s += DIGIT_SYMBOLS[k];
  return s;
}
