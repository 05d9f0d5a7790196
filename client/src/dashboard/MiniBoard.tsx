// A read-only Nonogram board for the dashboard (mirror, replay, puzzle pictures), with wrong cells highlighted.
import { EMPTY, FILLED } from '../../../shared/nonogram/grid.ts';

export interface MiniBoardProps {
  width: number;
  height: number;
  /** Cell states (UNKNOWN/FILLED/EMPTY) row by row; omitted: draw `solution` instead. */
  cells?: Uint8Array;
  solution?: readonly string[];
  rows?: number[][];
  cols?: number[][];
  wrong?: ReadonlySet<number>;
  /** Cell size in px. */
  cell?: number;
  testId?: string;
}

export function MiniBoard({ width, height, cells, solution, rows, cols, wrong, cell = 22, testId }: MiniBoardProps) {
  const state = (i: number, r: number, c: number): 'filled' | 'crossed' | 'unknown' => {
    if (cells) return cells[i] === FILLED ? 'filled' : cells[i] === EMPTY ? 'crossed' : 'unknown';
    return solution?.[r]?.[c] === '#' ? 'filled' : 'unknown';
  };
  const grid = (
    <div className="mb-grid" style={{ gridTemplateColumns: `repeat(${width}, var(--mb-cell))` }}>
      {Array.from({ length: width * height }, (_, i) => {
        const r = Math.floor(i / width);
        const c = i % width;
        const s = state(i, r, c);
        const bad = wrong?.has(i);
        return (
          <div
            key={i}
            className={`mb-cell ${s}${bad ? ' wrong' : ''}${(c + 1) % 5 === 0 && c + 1 < width ? ' edge-r' : ''}${(r + 1) % 5 === 0 && r + 1 < height ? ' edge-b' : ''}`}
            data-testid={testId ? `${testId}-cell-${r}-${c}` : undefined}
            data-state={s}
            data-wrong={bad ? 'true' : undefined}
          />
        );
      })}
    </div>
  );
  if (!rows || !cols)
    return (
      <div className="mb" style={{ ['--mb-cell' as string]: `${cell}px` }} data-testid={testId}>
        {grid}
      </div>
    );
  return (
    <div className="mb with-clues" style={{ ['--mb-cell' as string]: `${cell}px` }} data-testid={testId}>
      <div />
      <div className="mb-cols">
        {cols.map((clue, c) => (
          <div key={c} className="mb-col-clue">
            {(clue.length ? clue : [0]).map((n, i) => (
              <span key={i}>{n}</span>
            ))}
          </div>
        ))}
      </div>
      <div className="mb-rows">
        {rows.map((clue, r) => (
          <div key={r} className="mb-row-clue">
            {(clue.length ? clue : [0]).join(' ')}
          </div>
        ))}
      </div>
      {grid}
    </div>
  );
}
