// Phase kind 'tutorial': the rules, then a small puzzle on which the participant tries every control once.
import { tasksDone, tutorialTasks } from '../../../shared/study/tutorial.ts';
import { t } from '../i18n.ts';
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
  // The checklist sits right above the button that counts its open tasks, and the two are always on screen together.
  const finish = (
    <div className="tutorial" data-testid="tutorial-finish">
      <h2>{t('tutorial.heading')}</h2>
      <ul className="checklist" data-testid="checklist">
        {tasks.map((task) => (
          <li key={task} className={done.has(task) ? 'done' : ''} data-testid={`task-${task}`} data-done={done.has(task)}>
            <span className="tick" aria-hidden="true">
              {done.has(task) ? '✓' : ''}
            </span>
            <span>{t(`task.${input}.${task}`)}</span>
            <span className="sr-only">{t(done.has(task) ? 'tutorial.done' : 'tutorial.todo')}</span>
          </li>
        ))}
      </ul>
      <button type="button" className="primary continue" data-testid="continue" disabled={remaining > 0} onClick={() => advance('done')}>
        {remaining > 0 ? t('tutorial.continueLeft', { remaining }) : t('tutorial.continue')}
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
