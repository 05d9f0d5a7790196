// The Nonogram board: clues and cells. Pointer, touch and keyboard input become moves through the dispatcher.
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { t } from '../i18n.ts';
import type { PuzzleClues } from '../../../shared/schema/puzzle.ts';
import { EMPTY, FILLED, type Grid } from '../../../shared/nonogram/grid.ts';
import { gestureMove, keyAction, keyPaintMove, moveCursor, strokeCells, strokeCellTimes, touchTool, type Cell, type Tool } from '../../../shared/game/input.ts';
import { doneLines } from '../../../shared/game/lines.ts';
import type { Move } from '../../../shared/schema/move.ts';
import { dispatch } from '../study.ts';
import type { NonogramHintBody } from '../../../shared/schema/api.ts';
import { clueExtent, TOUCH_TARGET, useCellSize } from './fit.ts';

const LONG_PRESS_MS = 450;
type Shown = 'filled' | 'crossed' | 'unknown';

interface Drag {
  tool: Tool;
  start: Cell;
  cells: Cell[];
  /** performance.now() when the pointer reached each cell (the stroke's cell_ms). */
  times: number[];
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

const NAMES: Record<string, Shown> = { f: 'filled', c: 'crossed', u: 'unknown' };
const LETTER: Record<number, string> = { [FILLED]: 'f', [EMPTY]: 'c' };

interface RowProps {
  r: number;
  /** One letter per cell: f filled, c crossed, u unknown. */
  states: string;
  /** The preview per cell (same letters, '-' for none), or null when nothing is pending on this row. */
  preview: string | null;
  edgeBottom: boolean;
  /** For screen readers: this row's clue, and every column's (a stable array). */
  rowClue: string;
  colClues: readonly string[];
}

/**
 * One row of cells. Rows are memoised on plain strings, so a click re-renders only the row it changed, and the
 * highlights (pointer or cursor lines, the cursor, the hint) are overlays that re-render no cell at all: a 30x30 board
 * stays well within a frame.
 */
const RowView = memo(function RowView({ r, states, preview, edgeBottom, rowClue, colClues }: RowProps) {
  const width = states.length;
  const cells = [];
  for (let c = 0; c < width; c++) {
    const state = NAMES[states[c]];
    const pv = preview && preview[c] !== '-' ? NAMES[preview[c]] : undefined;
    let cls = `cell ${pv ?? state}`;
    if (pv !== undefined) cls += ' preview';
    if ((c + 1) % 5 === 0 && c + 1 < width) cls += ' edge-right';
    if (edgeBottom) cls += ' edge-bottom';
    cells.push(
      <div
        key={c}
        id={`cell-${r}-${c}`}
        role="gridcell"
        aria-label={t('board.cellLabel', { state, row: r + 1, rowClue, col: c + 1, colClue: colClues[c] })}
        data-testid={`cell-${r}-${c}`}
        data-row={r}
        data-col={c}
        data-state={state}
        className={cls}
      />,
    );
  }
  return (
    <div className="grid-row" role="row" aria-label={t('board.rowLabel', { row: r + 1, rowClue })}>
      {cells}
    </div>
  );
});

/** Position of an overlay on the grid: a row stripe, a column stripe, or one cell. */
function at(row: number | null, col: number | null): React.CSSProperties {
  return { top: row === null ? 0 : `calc(var(--cell) * ${row})`, left: col === null ? 0 : `calc(var(--cell) * ${col})` };
}

function doneKey(flags: boolean[]): string {
  let out = '';
  for (const f of flags) out += f ? '1' : '0';
  return out;
}

/** The clues of one axis; memoised on plain values so a click that completes no line does not touch them. */
const ClueStrip = memo(function ClueStrip({ axis, clues, done, line, hint }: { axis: 'row' | 'col'; clues: number[][]; done: string; line: number; hint: number }) {
  return (
    <div className={`${axis}-clues`} aria-hidden="true">
      {clues.map((clue, i) => (
        <div key={i} className={`${axis}-clue${done[i] === '1' ? ' done' : ''}${line === i ? ' line' : ''}${hint === i ? ' hint-line' : ''}`} data-testid={`${axis}-clue-${i}`} data-done={done[i] === '1'}>
          {(clue.length ? clue : [0]).map((n, k) => (
            <span key={k}>{n}</span>
          ))}
        </div>
      ))}
    </div>
  );
});

export interface BoardProps {
  puzzle: PuzzleClues;
  grid: Grid;
  disabled?: boolean;
  /** Touch mode (the Fill / Cross switch). */
  tool: Tool;
  hint?: NonogramHintBody | null;
  /** Largest cell size in px (the board shrinks below it to fit its box). */
  maxCell?: number;
  /**
   * Zoomed (phones): cells of at least a comfortable touch target, the box scrolls under the clues, which stay in
   * view (sticky); dragging on the clues pans the board, dragging on the grid paints as ever.
   */
  zoomed?: boolean;
  /** Told the cell size that fits the box unzoomed (the screen offers zoom when it is under a touch target). */
  onFit?: (cell: number) => void;
}

export function Board({ puzzle, grid, disabled, tool, hint, maxCell = 40, zoomed = false, onFit }: BoardProps) {
  const gridRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const dragRef = useRef<Drag | null>(null);
  const pointerFocus = useRef(false);
  const pressTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [cursor, setCursor] = useState<Cell>([0, 0]);
  const [anchor, setAnchor] = useState<Cell | null>(null);
  const [focused, setFocused] = useState(false);
  const [hover, setHover] = useState<Cell | null>(null);
  const [keyboardMode, setKeyboardMode] = useState(false);
  const { size: fitted, natural } = useCellSize(boxRef, puzzle, maxCell);
  const cell = zoomed ? Math.max(TOUCH_TARGET, fitted) : fitted;
  useEffect(() => {
    onFit?.(fitted);
  }, [fitted, onFit]);
  const extent = useMemo(() => clueExtent(puzzle), [puzzle]);
  const done = useMemo(() => doneLines(grid, puzzle), [grid, puzzle]);
  const rowClues = useMemo(() => puzzle.rows.map((c) => c.join(' ') || '0'), [puzzle]);
  const colClues = useMemo(() => puzzle.cols.map((c) => c.join(' ') || '0'), [puzzle]);

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
    pointerFocus.current = true;
    gridRef.current?.focus({ preventScroll: true });
    pointerFocus.current = false;
    setAnchor(null);
    setCursor(at);
    setKeyboardMode(false);
    if (source === 'mouse') setHover(at);
    updateDrag({ tool: t, start: at, cells: [at], times: [performance.now()], source, pointerId: e.pointerId, longPressed: false });
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
      updateDrag({ ...d, cells, times: strokeCellTimes(d.cells, d.times, cells, performance.now()) });
    }
  };

  const onPointerUp = (e: React.PointerEvent) => {
    const d = dragRef.current;
    if (!d || d.pointerId !== e.pointerId) return;
    clearPress();
    updateDrag(null);
    dispatch(gestureMove(grid, d.tool, d.cells, { cells: d.times, end: performance.now() }), d.source);
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
    setKeyboardMode(true);
    setHover(null);
    switch (action.kind) {
      case 'move':
        if (action.extend && !anchor) setAnchor(cursor);
        if (!action.extend) setAnchor(null);
        {
          const next = moveCursor(cursor, action.dr, action.dc, puzzle.width, puzzle.height);
          setCursor(next);
          if (zoomed) document.getElementById(`cell-${next[0]}-${next[1]}`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        }
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

  const pendingMove: Move | null = drag ? gestureMove(grid, drag.tool, drag.cells) : null;
  const pendingCells = previewOf(grid, pendingMove);
  const selected = new Set((selection ?? []).map(([r, c]) => r * puzzle.width + c));
  // The keyboard cursor shows while the grid has focus from the keyboard; otherwise the pointer's cell is highlighted.
  const showCursor = focused && keyboardMode;
  const focusCell: Cell | null = showCursor ? cursor : (hover ?? (drag ? drag.cells[drag.cells.length - 1] : null));
  const hintRow = hint?.line.axis === 'row' ? hint.line.index : -1;
  const hintCol = hint?.line.axis === 'col' ? hint.line.index : -1;

  return (
    <div
      className={`board-box${zoomed ? ' zoomed' : ''}`}
      ref={boxRef}
      data-testid="board-box"
      style={zoomed ? { scrollPaddingTop: `${Math.ceil(extent.colUnits * cell) + 4}px`, scrollPaddingLeft: `${Math.ceil(extent.rowUnits * cell) + 4}px` } : { ['--natural-height' as string]: `${natural}px` }}
    >
      <div
        className="board"
        style={{ ['--cell' as string]: `${cell}px`, ['--cols' as string]: puzzle.width, ['--rows' as string]: puzzle.height }}
        data-cell-size={cell}
      >
        <div className="corner" aria-hidden="true" />
        <ClueStrip axis="col" clues={puzzle.cols} done={doneKey(done.cols)} line={focusCell ? focusCell[1] : -1} hint={hintCol} />
        <ClueStrip axis="row" clues={puzzle.rows} done={doneKey(done.rows)} line={focusCell ? focusCell[0] : -1} hint={hintRow} />
        <div
          ref={gridRef}
          className={`grid${focused ? ' focused' : ''}${showCursor ? ' keyboard-focus' : ''}${disabled ? ' disabled' : ''}`}
          role="grid"
          tabIndex={0}
          aria-label={t('board.gridLabel', { width: puzzle.width, height: puzzle.height })}
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
          onFocus={() => {
            setFocused(true);
            if (!pointerFocus.current) setKeyboardMode(true);
          }}
          onBlur={() => {
            setFocused(false);
            setAnchor(null);
          }}
        >
          {focusCell && <div className="hl hl-row" style={at(focusCell[0], null)} aria-hidden="true" />}
          {focusCell && <div className="hl hl-col" style={at(null, focusCell[1])} aria-hidden="true" />}
          {hintRow >= 0 && <div className="hl hint-row" style={at(hintRow, null)} aria-hidden="true" />}
          {hintCol >= 0 && <div className="hl hint-col" style={at(null, hintCol)} aria-hidden="true" />}
          {hint && <div className={hint.kind === 'error' ? 'mark hint-box hint-wrong' : 'mark hint-box'} style={at(hint.row, hint.col)} aria-hidden="true" />}
          {showCursor && <div className="mark cursor-box" style={at(cursor[0], cursor[1])} data-testid="cursor" aria-hidden="true" />}
          {Array.from({ length: puzzle.height }, (_, r) => {
            let states = '';
            let preview: string | null = null;
            for (let c = 0; c < puzzle.width; c++) {
              const i = r * puzzle.width + c;
              states += LETTER[grid.cells[i]] ?? 'u';
              const pv = pendingCells.get(i) ?? (selected.has(i) ? stateName(grid.cells[i]) : undefined);
              if (pv !== undefined) preview = (preview ?? '-'.repeat(c)) + pv[0];
              else if (preview !== null) preview += '-';
            }
            return (
              <RowView
                key={r}
                r={r}
                states={states}
                preview={preview}
                edgeBottom={(r + 1) % 5 === 0 && r + 1 < puzzle.height}
                rowClue={rowClues[r]}
                colClues={colClues}
              />
            );
          })}
        </div>
      </div>
    </div>
  );
}
