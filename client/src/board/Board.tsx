// The Nonogram board: clues and cells; pointer gestures become moves through the dispatcher.
import { useRef, useState } from 'react';
import type { PuzzleClues } from '../../../shared/schema/puzzle.ts';
import { EMPTY, FILLED, type Grid } from '../../../shared/nonogram/grid.ts';
import { gestureMove, strokeCells, type Tool } from '../../../shared/game/input.ts';
import { dispatch } from '../study.ts';

interface Drag {
  tool: Tool;
  start: [number, number];
  cells: [number, number][];
  source: 'mouse' | 'touch';
}

function cellFromPoint(x: number, y: number): [number, number] | null {
  const el = document.elementFromPoint(x, y) as HTMLElement | null;
  const cell = el?.closest('[data-row]') as HTMLElement | null;
  if (!cell) return null;
  return [Number(cell.dataset.row), Number(cell.dataset.col)];
}

export function Board({ puzzle, grid, disabled, touchTool }: { puzzle: PuzzleClues; grid: Grid; disabled?: boolean; touchTool: Tool }) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const update = (d: Drag | null) => {
    dragRef.current = d;
    setDrag(d);
  };
  const preview = new Set((drag?.cells ?? []).map(([r, c]) => `${r},${c}`));
  const maxRowClue = Math.max(1, ...puzzle.rows.map((r) => r.length));
  const maxColClue = Math.max(1, ...puzzle.cols.map((c) => c.length));

  const onPointerDown = (e: React.PointerEvent) => {
    if (disabled) return;
    const cell = cellFromPoint(e.clientX, e.clientY);
    if (!cell) return;
    e.preventDefault();
    const source = e.pointerType === 'touch' ? 'touch' : 'mouse';
    const tool: Tool = source === 'touch' ? touchTool : e.button === 2 ? 'cross' : 'fill';
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    update({ tool, start: cell, cells: [cell], source });
  };
  const onPointerMove = (e: React.PointerEvent) => {
    const d = dragRef.current;
    if (!d) return;
    const cell = cellFromPoint(e.clientX, e.clientY);
    if (!cell) return;
    const cells = strokeCells(d.start, cell);
    if (cells.length !== d.cells.length || cells.at(-1)![0] !== d.cells.at(-1)![0] || cells.at(-1)![1] !== d.cells.at(-1)![1]) update({ ...d, cells });
  };
  const onPointerUp = () => {
    const d = dragRef.current;
    if (!d) return;
    update(null);
    dispatch(gestureMove(grid, d.tool, d.cells), d.source);
  };

  return (
    <div className="board" style={{ ['--cols' as string]: puzzle.width, ['--rows' as string]: puzzle.height, ['--rowclues' as string]: maxRowClue, ['--colclues' as string]: maxColClue }}>
      <div className="corner" />
      <div className="col-clues">
        {puzzle.cols.map((clue, c) => (
          <div key={c} className="col-clue" data-testid={`col-clue-${c}`}>
            {(clue.length ? clue : [0]).map((n, i) => (
              <span key={i}>{n}</span>
            ))}
          </div>
        ))}
      </div>
      <div className="row-clues">
        {puzzle.rows.map((clue, r) => (
          <div key={r} className="row-clue" data-testid={`row-clue-${r}`}>
            {(clue.length ? clue : [0]).map((n, i) => (
              <span key={i}>{n}</span>
            ))}
          </div>
        ))}
      </div>
      <div
        className="grid"
        role="grid"
        aria-label={`Nonogram ${puzzle.width} by ${puzzle.height}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => update(null)}
        onContextMenu={(e) => e.preventDefault()}
      >
        {Array.from({ length: puzzle.height }, (_, r) => (
          <div key={r} className="grid-row" role="row">
            {Array.from({ length: puzzle.width }, (_, c) => {
              const v = grid.cells[r * grid.width + c];
              const state = v === FILLED ? 'filled' : v === EMPTY ? 'crossed' : 'unknown';
              return (
                <div
                  key={c}
                  role="gridcell"
                  aria-label={`row ${r + 1} column ${c + 1} ${state}`}
                  data-testid={`cell-${r}-${c}`}
                  data-row={r}
                  data-col={c}
                  data-state={state}
                  className={`cell ${state}${preview.has(`${r},${c}`) ? ' preview' : ''}${(c + 1) % 5 === 0 ? ' edge-right' : ''}${(r + 1) % 5 === 0 ? ' edge-bottom' : ''}`}
                />
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
