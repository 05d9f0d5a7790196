// The participant's Sudoku board: select a cell, then a digit (the pad under the board, or the keys); notes mode
// pencils small candidate marks. Every action goes through the one dispatcher (study.ts dispatch) as a move.
import { useEffect, useMemo, useRef, useState } from 'react';
import { t } from '../i18n.ts';
import type { SudokuClues, SudokuHintBody } from '../../../shared/schema/api.ts';
import type { InputSource, Move } from '../../../shared/schema/move.ts';
import type { SudokuState } from '../../../shared/sudoku/board.ts';
import { clashingCells, marksOf } from '../../../shared/sudoku/board.ts';
import { DIGIT_SYMBOLS } from '../../../shared/sudoku/grid.ts';
import { dispatch, setPencil } from '../study.ts';

/** The digit a key names on a board of side n (1-9, then A, B, … past 9), or 0. */
export function digitOfKey(key: string, n: number): number {
  const v = DIGIT_SYMBOLS.indexOf(key.toUpperCase()) + 1;
  return key.length === 1 && v >= 1 && v <= n ? v : 0;
}

export interface SudokuBoardProps {
  puzzle: SudokuClues;
  state: SudokuState;
  disabled: boolean;
  pencil: boolean;
  flagConflicts: boolean;
  hint: SudokuHintBody | null;
}

const sourceOf = (e: { detail?: number; pointerType?: string; nativeEvent?: unknown }): InputSource => {
  const pointer = (e.nativeEvent as PointerEvent | undefined)?.pointerType ?? e.pointerType;
  return e.detail === 0 && !pointer ? 'keyboard' : pointer === 'touch' || pointer === 'pen' ? 'touch' : 'mouse';
};

export function SudokuBoard({ puzzle, state, disabled, pencil, flagConflicts, hint }: SudokuBoardProps) {
  const n = puzzle.size;
  const [br, bc] = puzzle.box;
  const [sel, setSel] = useState<[number, number] | null>(null);
  const grid = useRef<HTMLDivElement>(null);
  const [cell, setCell] = useState(44);
  // The cell size: the board fits the column's width (a 9x9 board at 390 px wide gets cells of 40 px), up to 52 px.
  useEffect(() => {
    const fit = () => {
      const width = grid.current?.parentElement?.clientWidth ?? window.innerWidth;
      setCell(Math.max(24, Math.min(52, Math.floor((width - 8) / n))));
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [n]);
  const clashes = useMemo(() => (flagConflicts ? clashingCells(state, puzzle.box) : new Set<number>()), [flagConflicts, state, puzzle.box]);
  const selDigit = sel ? state.cells.digits[sel[0] * n + sel[1]] : 0;
  const hintCells = new Set((hint?.cells ?? []).map(([r, c]) => r * n + c));

  /** A digit pressed (pad or key): written, pencilled, or nothing on a given; the same digit again clears it. */
  const press = (digit: number, source: InputSource) => {
    if (!sel || disabled) return;
    const [row, col] = sel;
    const i = row * n + col;
    if (state.given[i]) return;
    let move: Move;
    if (pencil) move = { type: 'pencil', row, col, digit };
    else if (state.cells.digits[i] === digit) move = { type: 'clear', row, col };
    else move = { type: 'set_digit', row, col, digit };
    dispatch(move, source);
  };
  const erase = (source: InputSource) => {
    if (!sel || disabled) return;
    const i = sel[0] * n + sel[1];
    if (state.given[i] || (state.cells.digits[i] === 0 && state.cells.marks[i] === 0)) return;
    dispatch({ type: 'clear', row: sel[0], col: sel[1] }, source);
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const arrows: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (arrows[e.key]) {
      e.preventDefault();
      const [r, c] = sel ?? [0, 0];
      const [dr, dc] = sel ? arrows[e.key] : [0, 0];
      setSel([Math.min(n - 1, Math.max(0, r + dr)), Math.min(n - 1, Math.max(0, c + dc))]);
      return;
    }
    if (e.key === 'Backspace' || e.key === 'Delete') {
      e.preventDefault();
      erase('keyboard');
      return;
    }
    // Past 9 the digits are letters (A = 10 …), so on a board bigger than 9 the letter keys are digits, not commands.
    if (n <= 9 && (e.key === 'n' || e.key === 'N')) {
      e.preventDefault();
      setPencil(!pencil);
      return;
    }
    if (n <= 9 && (e.key === 'z' || e.key === 'Z')) {
      e.preventDefault();
      if (state.history.length > 0 && !disabled) dispatch({ type: 'undo' }, 'keyboard');
      return;
    }
    const d = digitOfKey(e.key, n);
    if (d) {
      e.preventDefault();
      press(d, 'keyboard');
    }
  };
  const markCols = Math.ceil(Math.sqrt(n));

  return (
    <div className="sudoku-wrap" style={{ ['--cell' as string]: `${cell}px`, ['--n' as string]: n }}>
      <div
        ref={grid}
        className={`sudoku${disabled ? ' disabled' : ''}`}
        role="grid"
        aria-label={t('sudoku.gridLabel', { size: n })}
        tabIndex={0}
        data-testid="sudoku-board"
        data-mode={pencil ? 'notes' : 'digits'}
        data-sel={sel ? `${sel[0]}-${sel[1]}` : ''}
        onKeyDown={onKey}
        onFocus={() => setSel((s) => s ?? [0, 0])}
      >
        {Array.from({ length: n }, (_, r) => (
          <div role="row" className="sudoku-row" key={r}>
            {Array.from({ length: n }, (_, c) => {
              const i = r * n + c;
              const digit = state.cells.digits[i];
              const given = state.given[i] === 1;
              const isSel = sel !== null && sel[0] === r && sel[1] === c;
              const inUnit = sel !== null && (sel[0] === r || sel[1] === c || (Math.floor(sel[0] / br) === Math.floor(r / br) && Math.floor(sel[1] / bc) === Math.floor(c / bc)));
              const cls = [
                'sudoku-cell',
                given ? 'given' : digit ? 'entered' : '',
                isSel ? 'selected' : inUnit ? 'peer' : '',
                selDigit && digit === selDigit ? 'same' : '',
                clashes.has(i) ? 'conflict' : '',
                hintCells.has(i) ? 'hinted' : '',
                c % bc === bc - 1 && c < n - 1 ? 'box-right' : '',
                r % br === br - 1 && r < n - 1 ? 'box-bottom' : '',
              ]
                .filter(Boolean)
                .join(' ');
              const marks = digit ? [] : marksOf(state, i);
              return (
                <div
                  key={c}
                  role="gridcell"
                  aria-selected={isSel}
                  aria-label={digit ? t(given ? 'sudoku.cellGiven' : 'sudoku.cellDigit', { row: r + 1, col: c + 1, digit: DIGIT_SYMBOLS[digit - 1] }) : marks.length ? t('sudoku.cellNotes', { row: r + 1, col: c + 1, notes: marks.join(' ') }) : t('sudoku.cellEmpty', { row: r + 1, col: c + 1 })}
                  className={cls}
                  data-testid={`sudoku-cell-${r}-${c}`}
                  data-digit={digit || ''}
                  data-given={given}
                  data-marks={marks.join('')}
                  onPointerDown={(e) => {
                    if (e.pointerType === 'mouse' && e.button !== 0) return;
                    setSel([r, c]);
                    grid.current?.focus({ preventScroll: true });
                  }}
                >
                  {digit ? (
                    DIGIT_SYMBOLS[digit - 1]
                  ) : marks.length ? (
                    <span className="marks" style={{ gridTemplateColumns: `repeat(${markCols}, 1fr)` }}>
                      {Array.from({ length: n }, (_, k) => (
                        <span key={k}>{marks.includes(k + 1) ? DIGIT_SYMBOLS[k] : ''}</span>
                      ))}
                    </span>
                  ) : null}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div className="digit-pad" data-testid="digit-pad" role="group" aria-label={t('sudoku.pad')} style={{ gridTemplateColumns: `repeat(${Math.min(n, n <= 9 ? 9 : 8)}, 1fr)` }}>
        {Array.from({ length: n }, (_, k) => (
          <button type="button" key={k} data-testid={`pad-${k + 1}`} disabled={disabled} onClick={(e) => press(k + 1, sourceOf(e))}>
            {DIGIT_SYMBOLS[k]}
          </button>
        ))}
      </div>
      <div className="pad-tools">
        <div className="tool-switch" role="radiogroup" aria-label={t('sudoku.modeGroup')} data-testid="mode-switch">
          <button type="button" role="radio" aria-checked={!pencil} data-testid="mode-digits" className={!pencil ? 'on' : ''} onClick={() => setPencil(false)}>
            {t('sudoku.digits')}
          </button>
          <button type="button" role="radio" aria-checked={pencil} data-testid="mode-notes" className={pencil ? 'on' : ''} onClick={() => setPencil(true)}>
            {t('sudoku.notes')}
          </button>
        </div>
        <button type="button" className="erase" data-testid="erase" disabled={disabled} onClick={(e) => erase(sourceOf(e))}>
          {t('sudoku.erase')}
        </button>
      </div>
    </div>
  );
}
