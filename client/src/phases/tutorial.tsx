// Phase kind 'tutorial': the rules, then a small puzzle on which the participant tries every control once.
import { TutorialPhase } from '../../../shared/schema/config.ts';
import { TASK_LABELS, tasksDone, tutorialTasks } from '../../../shared/study/tutorial.ts';
import { PuzzleView } from '../board/PuzzleView.tsx';
import { advance, useStudy } from '../study.ts';
import type { PhaseModule, PhaseScreenProps } from './types.ts';

function TutorialScreen({ step, phase }: PhaseScreenProps<'tutorial'>) {
  const moves = useStudy((s) => s.movesByStep[step.index]);
  const hintsOn = useStudy((s) => s.session?.study.hint_policy !== 'off');
  const tasks = tutorialTasks(hintsOn);
  const done = tasksDone(moves ?? []);
  const remaining = tasks.filter((t) => !done.has(t)).length;
  const aside = (
    <div className="tutorial">
      <h2>Try each control once</h2>
      <ul className="checklist" data-testid="checklist">
        {tasks.map((t) => (
          <li key={t} className={done.has(t) ? 'done' : ''} data-testid={`task-${t}`} data-done={done.has(t)}>
            <span className="tick" aria-hidden="true">
              {done.has(t) ? '✓' : ''}
            </span>
            <span>{TASK_LABELS[t]}</span>
            <span className="sr-only">{done.has(t) ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ul>
    </div>
  );
  const intro = (
    <>
      {phase.text && <p className="instructions">{phase.text}</p>}
      {phase.video_url && <video className="tutorial-video" src={phase.video_url} controls preload="metadata" />}
    </>
  );
  const finish = (
    <button type="button" className="primary continue" data-testid="continue" disabled={remaining > 0} onClick={() => advance('done')}>
      {remaining > 0 ? `Continue (${remaining} to go)` : 'Continue to the warmup'}
    </button>
  );
  return <PuzzleView step={step} title={phase.title} intro={intro} aside={aside} finishButton={finish} canSkip={false} />;
}

export const tutorialPhase: PhaseModule<'tutorial'> = { kind: 'tutorial', params: TutorialPhase, records: ['move', 'submit_result', 'hint_shown'], Screen: TutorialScreen };
