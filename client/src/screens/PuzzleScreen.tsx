// A puzzle step (tutorial, warmup or study puzzle): the board, its controls, and the warmup countdown.
import { useEffect, useState } from 'react';
import { Board } from '../board/Board.tsx';
import { advance, dispatch, puzzleOf, skipPuzzle, stepElapsedMs, useStudy } from '../study.ts';
import type { Step } from '../../../shared/study/steps.ts';
import type { Phase } from '../../../shared/schema/config.ts';
import type { Tool } from '../../../shared/game/input.ts';

function useSecondsLeft(capSeconds: number | null): number | null {
  const [, tick] = useState(0);
  useEffect(() => {
    if (capSeconds === null) return;
    const id = setInterval(() => tick((t) => t + 1), 500);
    return () => clearInterval(id);
  }, [capSeconds]);
  return capSeconds === null ? null : Math.max(0, Math.ceil(capSeconds - stepElapsedMs() / 1000));
}

export function PuzzleScreen({ step, phase }: { step: Step; phase: Phase }) {
  const board = useStudy((s) => s.board);
  const feedback = useStudy((s) => s.feedback);
  const busy = useStudy((s) => s.busy);
  const [tool, setTool] = useState<Tool>('fill');
  const [confirm, setConfirm] = useState<'reset' | 'skip' | null>(null);
  const puzzle = puzzleOf(step.puzzle_id);
  const cap = phase.kind === 'warmup' ? phase.cap_seconds : null;
  const left = useSecondsLeft(cap);
  const skipMin = phase.kind === 'puzzles' ? phase.skip_min_seconds : 0;
  const canSkip = phase.kind !== 'tutorial' && stepElapsedMs() / 1000 >= skipMin;

  if (!puzzle || !board) return <p>Loading puzzle…</p>;
  const title = phase.kind === 'puzzles' ? `Puzzle ${step.position} of ${phase.count}` : phase.title;
  const text = phase.kind === 'puzzles' ? phase.text : phase.kind === 'warmup' || phase.kind === 'tutorial' ? phase.text : '';
  return (
    <section className="puzzle-screen">
      <header>
        <h1>{title}</h1>
        {left !== null && (
          <p className="countdown" data-testid="countdown">
            Time left: {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')}
          </p>
        )}
      </header>
      {text && <p className="instructions">{text}</p>}
      {phase.kind === 'tutorial' && 'video_url' in phase && phase.video_url && (
        <video className="tutorial-video" src={phase.video_url} controls width={480} />
      )}
      <div className="tool-switch" role="radiogroup" aria-label="Touch tool">
        <button type="button" role="radio" aria-checked={tool === 'fill'} className={tool === 'fill' ? 'on' : ''} onClick={() => setTool('fill')}>
          ■ Fill
        </button>
        <button type="button" role="radio" aria-checked={tool === 'cross'} className={tool === 'cross' ? 'on' : ''} onClick={() => setTool('cross')}>
          ✕ Cross
        </button>
      </div>
      <Board puzzle={puzzle} grid={board.grid} disabled={busy} touchTool={tool} />
      {feedback && (
        <p className="feedback" role="status" data-testid="feedback">
          {feedback}
        </p>
      )}
      <div className="controls">
        <button type="button" className="undo" data-testid="undo" onClick={() => dispatch({ type: 'undo' }, 'mouse')} disabled={board.history.length === 0}>
          ↶ Undo
        </button>
        <button type="button" className="submit primary" data-testid="submit" disabled={busy} onClick={() => dispatch({ type: 'submit' }, 'mouse')}>
          Submit
        </button>
        <span className="spacer" />
        <button type="button" className="reset danger" data-testid="reset" onClick={() => setConfirm('reset')}>
          Reset grid
        </button>
        {phase.kind !== 'tutorial' && (
          <button type="button" className="skip" data-testid="skip" disabled={!canSkip} onClick={() => setConfirm('skip')} title={canSkip ? '' : `Skip is possible after ${skipMin} s`}>
            Skip puzzle
          </button>
        )}
        {phase.kind === 'tutorial' && (
          <button type="button" data-testid="continue" onClick={() => advance('done')}>
            Continue
          </button>
        )}
      </div>
      {confirm && (
        <div className="dialog" role="dialog" aria-modal="true" aria-label="Confirm">
          <p>{confirm === 'reset' ? 'Clear the whole grid? (You can undo this.)' : 'Skip this puzzle? You cannot come back to it.'}</p>
          <button
            type="button"
            data-testid="confirm-yes"
            onClick={() => {
              setConfirm(null);
              if (confirm === 'reset') dispatch({ type: 'reset' }, 'mouse');
              else skipPuzzle();
            }}
          >
            {confirm === 'reset' ? 'Clear grid' : 'Skip'}
          </button>
          <button type="button" data-testid="confirm-no" onClick={() => setConfirm(null)}>
            Cancel
          </button>
        </div>
      )}
    </section>
  );
}
