// The Nonogram board: clues and cells. Pointer, touch and keyboard input become moves through the dispatcher.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PuzzleClues } from '../../../shared/schema/puzzle.ts';
import { EMPTY, FILLED, type Grid } from '../../../shared/nonogram/grid.ts';
import { gestureMove, keyAction, keyPaintMove, moveCursor, strokeCells, touchTool, type Cell, type Tool } from '../../../shared/game/input.ts';
import { doneLines } from '../../../shared/game/lines.ts';
import type { Move } from '../../../shared/schema/move.ts';
import { dispatch, type Hint } from '../study.ts';
import { useCellSize } from './fit.ts';

const LONG_PRESS_MS = 450;
type Shown = 'filled' | 'crossed' | 'unknown';

interface Drag {
  tool: Tool;
  start: Cell;
  cells: Cell[];
  source: 'mouse' | 'touch';
  pointerId: number;
  longPressed: boolean;
}

function stateName(v: number): Shown {
  return v === FILLED ? 'filled' : v === EMPTY ? 'crossed' : 'unknown';
}

/** The state a pending move would give each of its cells (the preview while dragging or selecting). */
function previewOf(grid: Grid, move: Move | null): Map<number, Shown> {
  const out = new Map<number, Shown>();
  if (!move) return out;
  if (move.type === 'stroke') for (const [r, c] of move.cells) out.set(r * grid.width + c, move.state);
  else if (move.type === 'fill' || move.type === 'cross' || move.type === 'clear') {
    const i = move.row * grid.width + move.col;
    const cur = stateName(grid.cells[i]);
    out.set(i, move.type === 'clear' ? 'unknown' : move.type === 'fill' ? (cur === 'filled' ? 'unknown' : 'filled') : cur === 'crossed' ? 'unknown' : 'crossed');
  }
  return out;
}

interface CellProps {
  r: number;
  c: number;
  state: Shown;
  preview: Shown | undefined;
  cursor: boolean;
  line: boolean;
  hintLine: boolean;
  hintCell: boolean;
  edgeRight: boolean;
  edgeBottom: boolean;
}

const CellView = memo(function CellView({ r, c, state, preview, cursor, line, hintLine, hintCell, edgeRight, edgeBottom }: CellProps) {
  let cls = `cell ${preview ?? state}`;
  if (preview !== undefined) cls += ' preview';
  if (cursor) cls += ' cursor';
  if (line) cls += ' line';
  if (hintLine) cls += ' hint-line';
  if (hintCell) cls += ' hint-cell';
  if (edgeRight) cls += ' edge-right';
  if (edgeBottom) cls += ' edge-bottom';
  return (
    <div
      id={`cell-${r}-${c}`}
      role="gridcell"
      aria-label={`row ${r + 1}, column ${c + 1}: ${state === 'unknown' ? 'blank' : state}`}
      aria-selected={cursor}
      data-testid={`cell-${r}-${c}`}
      data-row={r}
      data-col={c}
      data-state={state}
      className={cls}
    />
  );
});

function ClueNumbers({ clue }: { clue: number[] }) {
  return (
    <>
      {(clue.length ? clue : [0]).map((n, i) => (
        <span key={i}>{n}</span>
      ))}
    </>
  );
}

export interface BoardProps {
  puzzle: PuzzleClues;
  grid: Grid;
  disabled?: boolean;
  /** Touch mode (the Fill / Cross switch). */
  tool: Tool;
  hint?: Hint | null;
  /** Largest cell size in px (the board shrinks below it to fit its box). */
  maxCell?: number;
}

export function Board({ puzzle, grid, disabled, tool, hint, maxCell = 40 }: BoardProps) {
  const gridRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<Drag | null>(null);
  const pressTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [cursor, setCursor] = useState<Cell>([0, 0]);
  const [anchor, setAnchor] = useState<Cell | null>(null);
  const [focused, setFocused] = useState(false);
  const [hover, setHover] = useState<Cell | null>(null);
  const cell = useCellSize(boxRef, puzzle, maxCell);
  const done = useMemo(() => doneLines(grid, puzzle), [grid, puzzle]);

  const updateDrag = (d: Drag | null) => {
    dragRef.current = d;
    setDrag(d);
  };
  const clearPress = () => {
    if (pressTimer.current) clearTimeout(pressTimer.current);
    pressTimer.current = null;
  };
  useEffect(() => clearPress, []);

  const cellAt = useCallback(
    (x: number, y: number): Cell | null => {
      const el = gridRef.current;
      if (!el) return null;
      const rect = el.getBoundingClientRect();
      const w = (rect.width - el.clientLeft * 2) / puzzle.width;
      const h = (rect.height - el.clientTop * 2) / puzzle.height;
      const c = Math.floor((x - rect.left - el.clientLeft) / w);
      const r = Math.floor((y - rect.top - el.clientTop) / h);
      if (r < 0 || c < 0 || r >= puzzle.height || c >= puzzle.width) return null;
      return [r, c];
    },
    [puzzle.width, puzzle.height],
  );

  const onPointerDown = (e: React.PointerEvent) => {
    if (disabled || dragRef.current) return;
    if (e.pointerType === 'mouse' && e.button !== 0 && e.button !== 2) return;
    const at = cellAt(e.clientX, e.clientY);
    if (!at) return;
    e.preventDefault();
    const source = e.pointerType === 'touch' || e.pointerType === 'pen' ? 'touch' : 'mouse';
    const t: Tool = source === 'touch' ? tool : e.button === 2 ? 'cross' : 'fill';
    gridRef.current?.setPointerCapture?.(e.pointerId);
    gridRef.current?.focus({ preventScroll: true });
    setAnchor(null);
    updateDrag({ tool: t, start: at, cells: [at], source, pointerId: e.pointerId, longPressed: false });
    if (source === 'touch' && t === 'fill') {
      clearPress();
      pressTimer.current = setTimeout(() => {
        const d = dragRef.current;
        if (d && d.cells.length === 1) {
          navigator.vibrate?.(15);
          updateDrag({ ...d, longPressed: true, tool: touchTool(tool, true) });
        }
      }, LONG_PRESS_MS);
    }
  };

  const onPointerMove = (e: React.PointerEvent) => {
    const d = dragRef.current;
    const at = cellAt(e.clientX, e.clientY);
    if (!d) {
      if (e.pointerType === 'mouse' && (at?.[0] !== hover?.[0] || at?.[1] !== hover?.[1])) setHover(at);
      return;
    }
    if (d.pointerId !== e.pointerId || !at) return;
    const cells = strokeCells(d.start, at);
    const last = d.cells[d.cells.length - 1];
    const end = cells[cells.length - 1];
    if (cells.length !== d.cells.length || end[0] !== last[0] || end[1] !== last[1]) {
      if (cells.length > 1) clearPress();
      updateDrag({ ...d, cells });
    }
  };

  const onPointerUp = (e: React.PointerEvent) => {
    const d = dragRef.current;
    if (!d || d.pointerId !== e.pointerId) return;
    clearPress();
    updateDrag(null);
    setCursor(d.cells[d.cells.length - 1]);
    dispatch(gestureMove(grid, d.tool, d.cells), d.source);
  };

  const onPointerCancel = () => {
    clearPress();
    updateDrag(null);
  };

  const selection = anchor ? strokeCells(anchor, cursor) : null;

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (disabled) return;
    const action = keyAction(e.key, { shift: e.shiftKey, ctrl: e.ctrlKey, alt: e.altKey, meta: e.metaKey });
    if (!action) return;
    e.preventDefault();
    switch (action.kind) {
      case 'move':
        if (action.extend && !anchor) setAnchor(cursor);
        if (!action.extend) setAnchor(null);
        setCursor(moveCursor(cursor, action.dr, action.dc, puzzle.width, puzzle.height));
        break;
      case 'paint':
        dispatch(keyPaintMove(grid, action.state, selection ?? [cursor]), 'keyboard');
        setAnchor(null);
        break;
      case 'undo':
        dispatch({ type: 'undo' }, 'keyboard');
        break;
      case 'cancel':
        setAnchor(null);
        break;
    }
  };

  const pending: Move | null = drag ? gestureMove(grid, drag.tool, drag.cells) : null;
  const preview = previewOf(grid, pending);
  const selected = new Set((selection ?? []).map(([r, c]) => r * puzzle.width + c));
  const focusCell: Cell | null = focused ? cursor : (hover ?? (drag ? drag.cells[drag.cells.length - 1] : null));
  const hintRow = hint?.line.axis === 'row' ? hint.line.index : -1;
  const hintCol = hint?.line.axis === 'col' ? hint.line.index : -1;

  return (
    <div className="board-box" ref={boxRef}>
      <div
        className="board"
        style={{ ['--cell' as string]: `${cell}px`, ['--cols' as string]: puzzle.width, ['--rows' as string]: puzzle.height }}
        data-cell-size={cell}
      >
        <div className="corner" aria-hidden="true" />
        <div className="col-clues" aria-hidden="true">
          {puzzle.cols.map((clue, c) => (
            <div
              key={c}
              className={`col-clue${done.cols[c] ? ' done' : ''}${focusCell?.[1] === c ? ' line' : ''}${hintCol === c ? ' hint-line' : ''}`}
              data-testid={`col-clue-${c}`}
              data-done={done.cols[c]}
            >
              <ClueNumbers clue={clue} />
            </div>
          ))}
        </div>
        <div className="row-clues" aria-hidden="true">
          {puzzle.rows.map((clue, r) => (
            <div
              key={r}
              className={`row-clue${done.rows[r] ? ' done' : ''}${focusCell?.[0] === r ? ' line' : ''}${hintRow === r ? ' hint-line' : ''}`}
              data-testid={`row-clue-${r}`}
              data-done={done.rows[r]}
            >
              <ClueNumbers clue={clue} />
            </div>
          ))}
        </div>
        <div
          ref={gridRef}
          className={`grid${focused ? ' focused' : ''}${disabled ? ' disabled' : ''}`}
          role="grid"
          tabIndex={0}
          aria-label={`Puzzle grid, ${puzzle.width} columns by ${puzzle.height} rows. Arrow keys move, Space fills, X crosses, Backspace clears, Z undoes, Shift with arrows selects a line.`}
          aria-activedescendant={`cell-${cursor[0]}-${cursor[1]}`}
          aria-disabled={disabled || undefined}
          data-testid="grid"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerCancel}
          onPointerLeave={() => setHover(null)}
          onContextMenu={(e) => e.preventDefault()}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            setAnchor(null);
          }}
        >
          {Array.from({ length: puzzle.height }, (_, r) => (
            <div key={r} className="grid-row" role="row" aria-label={`row ${r + 1}, clue ${puzzle.rows[r].join(' ') || '0'}`}>
              {Array.from({ length: puzzle.width }, (_, c) => {
                const i = r * puzzle.width + c;
                return (
                  <CellView
                    key={c}
                    r={r}
                    c={c}
                    state={stateName(grid.cells[i])}
                    preview={preview.get(i) ?? (selected.has(i) ? stateName(grid.cells[i]) : undefined)}
                    cursor={focused && cursor[0] === r && cursor[1] === c}
                    line={focusCell !== null && (focusCell[0] === r || focusCell[1] === c)}
                    hintLine={hintRow === r || hintCol === c}
                    hintCell={hint?.row === r && hint?.col === c}
                    edgeRight={(c + 1) % 5 === 0 && c + 1 < puzzle.width}
                    edgeBottom={(r + 1) % 5 === 0 && r + 1 < puzzle.height}
                  />
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
