// Phase kind 'post_survey': each puzzle as a small picture of the final board with its (changeable) rating and a
// "why" question, then the config's items.
import { Suspense, lazy } from 'react';
import type { SurveyItem } from '../../../shared/schema/config.ts';
import { finalRows } from '../../../shared/study/progress.ts';
import { puzzleOf, reviseRating, submitSurvey, sudokuOf, sudokuRules, useStudy, useInputText } from '../study.ts';
import { MiniBoard } from '../ui/MiniBoard.tsx';
import { preloadPuzzleView } from '../board/LazyPuzzleView.tsx';
import { Survey } from '../ui/Survey.tsx';
import { t } from '../i18n.ts';
import type { PhaseModule, PhaseScreenProps } from './types.ts';


// Sudoku pictures load with a Sudoku study's post-survey only: the first load of every study stays within its budget.
const SudokuMini = lazy(() => import('../ui/SudokuMini.tsx').then((m) => ({ default: m.SudokuMini })));

function PostSurveyScreen({ phase }: PhaseScreenProps<'post_survey'>) {
  const text = useInputText(phase.text);
  const steps = useStudy((s) => s.steps);
  const ratings = useStudy((s) => s.ratings);
  const outcomes = useStudy((s) => s.outcomes);
  const movesByStep = useStudy((s) => s.movesByStep);
  // A Sudoku's picture needs the board's rules, which come with the puzzle screen's chunk (after a reload here too).
  useStudy((s) => s.sudokuReady);
  preloadPuzzleView();
  const puzzlesPhase = useStudy((s) => s.session?.study.phases.find((p) => p.kind === 'puzzles'));
  const labels = puzzlesPhase?.kind === 'puzzles' ? puzzlesPhase.rating.difficulty_labels : ['1', '2', '3', '4', '5'];
  const sections = steps
    .filter((s) => s.kind === 'puzzle' && s.puzzle_id)
    .map((s) => {
      const id = s.puzzle_id!;
      const puzzle = puzzleOf(id);
      const sudoku = sudokuOf(id);
      const rules = sudokuRules();
      const left = sudoku && rules ? rules.replaySudoku(sudoku.givens, movesByStep[s.index] ?? []) : null;
      const rating = ratings[id]?.difficulty ?? null;
      const outcome = outcomes[id];
      const why: SurveyItem = { type: 'text', id: `why_${id}`, label: phase.why_label, required: true, multiline: true, max_length: 5_000 };
      const header = (
        <div className="post-puzzle" data-testid={`post-puzzle-${s.position}`}>
          {puzzle ? (
            <MiniBoard rows={finalRows(movesByStep, s.index, puzzle.width, puzzle.height)} label={t('post.asLeft', { n: s.position ?? 0 })} />
          ) : sudoku && left ? (
            <Suspense fallback={null}>
              <SudokuMini size={sudoku.size} box={sudoku.box} digits={left.cells.digits} given={left.given} cell={Math.max(8, Math.floor(110 / sudoku.size))} label={t('post.asLeft', { n: s.position ?? 0 })} testId={`post-sudoku-${s.position}`} />
            </Suspense>
          ) : null}
          <div>
            <h2>
              {t('post.puzzle', { n: s.position ?? 0 })}
              {outcome && <span className={`badge ${outcome}`}>{outcome === 'solved' ? t('post.solved') : outcome === 'skipped' ? t('post.skipped') : outcome === 'timeout' ? t('post.timeout') : outcome}</span>}
            </h2>
            <label className="revise">
              {t('post.difficulty')}{' '}
              <select
                value={rating === null ? 'na' : String(rating)}
                data-testid={`revise-${s.position}`}
                onChange={(e) => reviseRating(id, e.target.value === 'na' ? null : Number(e.target.value), 'mouse')}
              >
                {labels.map((l, i) => (
                  <option key={i} value={i + 1}>
                    {i + 1} {l}
                  </option>
                ))}
                {(rating === null || outcome === 'skipped') && <option value="na">{t('rating.na')}</option>}
              </select>
            </label>
          </div>
        </div>
      );
      return { key: id, header, items: [why] };
    });
  return <Survey id={phase.id} title={phase.title} text={text} sections={sections} items={phase.items} onSubmit={(answers) => submitSurvey(phase.id, answers)} />;
}

export const postSurveyPhase: PhaseModule<'post_survey'> = {
  kind: 'post_survey',
  Screen: PostSurveyScreen,
};
