// Phase kind 'tutorial': the rules, then a small puzzle on which the participant tries every control once.
import { TASK_LABELS_BY_INPUT, tasksDone, tutorialTasks } from '../../../shared/study/tutorial.ts';
import { PuzzleView } from '../board/LazyPuzzleView.tsx';
import { advance, sudokuOf, useInputText, useStudy } from '../study.ts';
import type { PhaseModule, PhaseScreenProps } from './types.ts';

function TutorialScreen({ step, phase }: PhaseScreenProps<'tutorial'>) {
  const moves = useStudy((s) => s.movesByStep[step.index]);
  const hintsOn = useStudy((s) => s.session?.study.hint_policy !== 'off');
  const input = useStudy((s) => s.inputKind);
  const text = useInputText(phase.text);
  const tasks = tutorialTasks(hintsOn, sudokuOf(step.puzzle_id) ? 'sudoku' : 'nonogram');
  const done = tasksDone(moves ?? []);
  const remaining = tasks.filter((t) => !done.has(t)).length;
  const labels = TASK_LABELS_BY_INPUT[input];
  // The checklist sits right above the button that counts its open tasks, and the two are always on screen together.
  const finish = (
    <div className="tutorial" data-testid="tutorial-finish">
      <h2>Try each control once</h2>
      <ul className="checklist" data-testid="checklist">
        {tasks.map((t) => (
          <li key={t} className={done.has(t) ? 'done' : ''} data-testid={`task-${t}`} data-done={done.has(t)}>
            <span className="tick" aria-hidden="true">
              {done.has(t) ? '✓' : ''}
            </span>
            <span>{labels[t]}</span>
            <span className="sr-only">{done.has(t) ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ul>
      <button type="button" className="primary continue" data-testid="continue" disabled={remaining > 0} onClick={() => advance('done')}>
        {remaining > 0 ? `Continue (${remaining} to go)` : 'Continue to the warmup'}
      </button>
    </div>
  );
  const intro = (
    <>
      {text && (
        <p className="instructions" data-testid="instructions" data-input={input}>
          {text}
        </p>
      )}
      {phase.video_url && <video className="tutorial-video" src={phase.video_url} controls preload="metadata" />}
    </>
  );
  return <PuzzleView step={step} title={phase.title} intro={intro} finish={finish} canSkip={false} />;
}

export const tutorialPhase: PhaseModule<'tutorial'> = { kind: 'tutorial', Screen: TutorialScreen };
