// A puzzle step's screen (tutorial, warmup, study puzzle): the board with its controls, hint panel and feedback.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Board } from './Board.tsx';
import { dismissHint, dispatch, fixHint, nonogramHint, puzzleOf, registerBoardRequests, registerSudokuEngine, setTool, skipPuzzle, sudokuHint, sudokuOf, useStudy } from '../study.ts';
import { boardRequests } from './requests.ts';
import * as sudokuBoardRules from '../../../shared/sudoku/board.ts';
import { SudokuBoard } from './SudokuBoard.tsx';
import { TOUCH_TARGET } from './fit.ts';
import type { Step } from '../../../shared/study/steps.ts';
import type { InputSource } from '../../../shared/schema/move.ts';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { TopBar } from '../ui/TopBar.tsx';
import { useBackGuard } from '../backGuard.ts';
import { installTapRescue } from '../tapRescue.ts';
import { t } from '../i18n.ts';

// Both belong to the board screens (this lazily loaded chunk), not the first load: a tap on a control right after a
// stroke must register (tapRescue.ts), and Back in the middle of a puzzle asks first (backGuard.ts).
if (typeof document !== 'undefined') installTapRescue();
// The Sudoku board's rules come with this chunk, not the first load.
registerSudokuEngine(sudokuBoardRules);
// So do the check and hint requests, and the words for their refusals (en.steps.ts).
registerBoardRequests(boardRequests);

const hasTouch = typeof navigator !== 'undefined' && navigator.maxTouchPoints > 0;

function ToolSwitch() {
  const tool = useStudy((s) => s.tool);
  return (
    <div className="tool-switch" role="radiogroup" aria-label={t('board.toolGroup')} data-testid="tool-switch">
      <button type="button" role="radio" aria-checked={tool === 'fill'} data-testid="tool-fill" className={tool === 'fill' ? 'on' : ''} onClick={() => setTool('fill')}>
        <span className="swatch filled" aria-hidden="true" /> {t('board.fill')}
      </button>
      <button type="button" role="radio" aria-checked={tool === 'cross'} data-testid="tool-cross" className={tool === 'cross' ? 'on' : ''} onClick={() => setTool('cross')}>
        <span className="swatch crossed" aria-hidden="true">✕</span> {t('board.cross')}
      </button>
    </div>
  );
}

/** The hint's Close: a text link to look at, a 44 px touch target to tap. */
export function HintClose() {
  return (
    <button type="button" className="link hint-close" data-testid="hint-close" onClick={dismissHint} aria-label={t('hint.closeLabel')}>
      {t('hint.close')}
    </button>
  );
}

function HintPanel({ source }: { source: (e: React.MouseEvent) => InputSource }) {
  const hint = useStudy((s) => s.hint);
  const busy = useStudy((s) => s.busy);
  const panel = useRef<HTMLDivElement>(null);
  // A new hint comes into view (on a phone it may open below the fold, or under the tutorial's bar).
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: 'nearest' });
  }, [hint?.row, hint?.col, hint?.explanation]);
  if (!hint) return null;
  return (
    <div className="hint-panel" role="status" data-testid="hint-panel" ref={panel}>
      <div className="hint-head">
        <strong>{hint.heading}</strong>
        <HintClose />
      </div>
      <p data-testid="hint-text">{hint.explanation}</p>
      {hint.fixOffered && (
        <div className="controls hint-fix">
          <button type="button" data-testid="hint-fix" disabled={busy !== null} onClick={(e) => fixHint(source(e))}>
            {'puzzle' in hint ? t('hint.writeForMe', { digit: hint.digit ?? '' }) : t(hint.value === 'filled' ? 'hint.fillForMe' : 'hint.crossForMe')}
          </button>
        </div>
      )}
    </div>
  );
}

export interface PuzzleViewProps {
  step: Step;
  title: string;
  progress?: string;
  /** Instructions, above the board. */
  intro?: ReactNode;
  /** More in the side panel (the tutorial's checklist); below the controls on a phone. */
  aside?: ReactNode;
  /** Replaces Skip: the tutorial's checklist with its Continue button, kept in view (last in the side panel on a
   * desktop, a bar at the bottom of the screen on a phone). */
  finish?: ReactNode;
  canSkip: boolean;
  skipNote?: string;
}

export function PuzzleView({ step, title, progress, intro, aside, finish, canSkip, skipNote }: PuzzleViewProps) {
  const board = useStudy((s) => s.board);
  const feedback = useStudy((s) => s.feedback);
  const busy = useStudy((s) => s.busy);
  const tool = useStudy((s) => s.tool);
  const hint = useStudy((s) => s.hint);
  const skipAllowed = useStudy((s) => s.skipAllowed);
  const hintsOn = useStudy((s) => s.session?.study.hint_policy !== 'off');
  const [confirm, setConfirm] = useState<{ what: 'reset' | 'skip'; source: InputSource } | null>(null);
  const back = useBackGuard(true);
  // Zoom (touch screens): offered when the board's cells would be under a comfortable touch target.
  const [fitCell, setFitCell] = useState(TOUCH_TARGET);
  const [zoomed, setZoomed] = useState(false);
  const canZoom = hasTouch && fitCell < TOUCH_TARGET;
  // Submit's answer ("Not solved yet", "Solved!") is brought into view when it comes, clear of the tutorial's
  // checklist bar (scroll-margin in board.css) and of a hint panel above it.
  const feedbackRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (feedback) feedbackRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [feedback]);
  const sudokuState = useStudy((s) => s.sudoku);
  const pencil = useStudy((s) => s.pencil);
  const flagConflicts = useStudy((s) => s.session?.study.sudoku?.flag_conflicts ?? false);
  const puzzle = puzzleOf(step.puzzle_id);
  const sudoku = sudokuOf(step.puzzle_id);
  // The board of the step's kind; the chrome around it (hint panel, feedback, Undo, Hint, Submit, Reset, Skip) is one.
  if (!((puzzle && board) || (sudoku && sudokuState))) return <p className="loading">{t('app.loadingPuzzle')}</p>;
  const history = board ? board.history.length : sudokuState!.history.length;
  const empty = board ? board.grid.cells.every((c) => c === 0) : sudokuState!.cells.digits.every((d, i) => d === 0 || sudokuState!.given[i] === 1) && sudokuState!.cells.marks.every((m) => m === 0);
  const source = (e: React.MouseEvent): InputSource => (e.detail === 0 ? 'keyboard' : (e.nativeEvent as PointerEvent).pointerType === 'touch' ? 'touch' : 'mouse');

  const resetButton = (
    <button type="button" className="reset danger" data-testid="reset" disabled={empty || busy !== null} onClick={(e) => setConfirm({ what: 'reset', source: source(e) })}>
      {t('board.reset')}
    </button>
  );
  // The tutorial on a touch screen: Reset beside Fill / Cross, so that every control is on a phone's first screen
  // above the checklist bar (issue 32).
  const resetWithTools = hasTouch && !!finish && !!board; // (a Sudoku board has no touch tools row: its Reset stays below)
  return (
    <section className="puzzle-screen" data-testid="puzzle-screen">
      {back.asking && (
        <ConfirmDialog
          message={t('dialog.leave')}
          confirmLabel={t('dialog.leaveYes')}
          cancelLabel={t('dialog.leaveNo')}
          onConfirm={back.leave}
          onCancel={back.stay}
        />
      )}
      <TopBar title={title} progress={progress} />
      <div className="puzzle-body">
        <div className="board-col">
          {intro && <div className="intro">{intro}</div>}
          {puzzle && board ? (
            <Board
              puzzle={puzzle}
              grid={board.grid}
              disabled={busy !== null}
              tool={tool}
              hint={nonogramHint(hint)}
              maxCell={puzzle.width <= 5 && puzzle.height <= 5 ? 56 : 44}
              zoomed={zoomed && canZoom}
              onFit={setFitCell}
            />
          ) : (
            <SudokuBoard puzzle={sudoku!} state={sudokuState!} disabled={busy !== null} pencil={pencil} flagConflicts={flagConflicts} hint={sudokuHint(hint)} />
          )}
        </div>
        <aside className="side">
          {aside && <div className="side-scroll">{aside}</div>}
          <div className="side-fixed">
            <HintPanel source={source} />
            {feedback && (
              <p className={`feedback ${feedback.tone}`} role="status" data-testid="feedback" ref={feedbackRef}>
                {feedback.text}
              </p>
            )}
            {hasTouch && board && (
              <div className="touch-tools">
                <ToolSwitch />
                {resetWithTools && resetButton}
                {canZoom && (
                  <button type="button" className="zoom-toggle" data-testid="zoom" aria-pressed={zoomed} onClick={() => setZoomed(!zoomed)}>
                    {t(zoomed ? 'board.zoomOut' : 'board.zoomIn')}
                  </button>
                )}
              </div>
            )}
            <div className="controls main-controls">
              <button type="button" className="undo" data-testid="undo" aria-keyshortcuts="z" disabled={history === 0 || busy !== null} onClick={(e) => dispatch({ type: 'undo' }, source(e))}>
                <span aria-hidden="true">↶</span> {t('board.undo')}
              </button>
              {hintsOn && (
                <button type="button" className="hint" data-testid="hint" disabled={busy !== null} onClick={(e) => dispatch({ type: 'hint' }, source(e))}>
                  {t(busy === 'hint' ? 'board.thinking' : 'board.hint')}
                </button>
              )}
              <button type="button" className="submit primary" data-testid="submit" disabled={busy !== null} onClick={(e) => dispatch({ type: 'submit' }, source(e))}>
                {t(busy === 'check' ? 'board.checking' : 'board.submit')}
              </button>
            </div>
            {board ? (
              <p className="keys">
                {t('board.keys')} {t('board.keysMove')} · <kbd>Space</kbd> {t('board.keysFill')} · <kbd>X</kbd> {t('board.keysCross')} · <kbd>⌫</kbd> {t('board.keysClear')} · <kbd>Z</kbd> {t('board.keysUndo')} · <kbd>Shift</kbd>+{t('board.keysArrows')} {t('board.keysSelect')}
              </p>
            ) : (
              <p className="keys">
                {t('board.keys')} {t('board.keysMove')} · <kbd>1</kbd>–<kbd>{sudoku!.size <= 9 ? sudoku!.size : 9}</kbd>
                {sudoku!.size > 9 ? <> {t('board.keysLetters')}</> : null} {t('board.keysWrite')} · {sudoku!.size <= 9 ? <><kbd>N</kbd> {t('board.keysNotes')} · </> : null}
                <kbd>⌫</kbd> {t('board.keysErase')}{sudoku!.size <= 9 ? <> · <kbd>Z</kbd> {t('board.keysUndo')}</> : null}
              </p>
            )}
            <div className="controls rare-controls">
              {!resetWithTools && resetButton}
              {!finish &&
                canSkip && (
                  <button type="button" className="skip" data-testid="skip" disabled={!skipAllowed || busy !== null} onClick={(e) => setConfirm({ what: 'skip', source: source(e) })} title={skipAllowed ? undefined : skipNote}>
                    {t(step.kind === 'warmup' ? 'board.endWarmup' : 'board.skip')}
                  </button>
                )}
            </div>
            {canSkip && !skipAllowed && skipNote && !finish && <p className="note">{skipNote}</p>}
            {finish && (
              <div className="finish" data-testid="finish">
                {finish}
              </div>
            )}
          </div>
        </aside>
      </div>
      {confirm && (
        <ConfirmDialog
          message={t(confirm.what === 'reset' ? 'dialog.reset' : step.kind === 'warmup' ? 'dialog.endWarmup' : 'dialog.skip')}
          confirmLabel={t(confirm.what === 'reset' ? 'dialog.resetYes' : step.kind === 'warmup' ? 'dialog.endWarmupYes' : 'dialog.skipYes')}
          danger
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            const { what, source: from } = confirm;
            setConfirm(null);
            if (what === 'reset') dispatch({ type: 'reset' }, from);
            else skipPuzzle(from);
          }}
        />
      )}
    </section>
  );
}
