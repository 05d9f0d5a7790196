// Phase kind 'puzzles': the participant's sequence, each puzzle followed by its rating screen.
import type { SurveyItem } from '../../../shared/schema/config.ts';
import { PuzzleView } from '../board/LazyPuzzleView.tsx';
import { submitRating, useStudy, useInputText } from '../study.ts';
import { Survey } from '../ui/Survey.tsx';
import type { PhaseModule, PhaseScreenProps } from './types.ts';
import { skipNoteText } from './skipNote.ts';
import { t } from '../i18n.ts';

export const NOT_APPLICABLE = 'N/A';

/** Difficulty options: "1 Very easy" ... "5 Very hard", plus N/A for a skipped puzzle. */
export function difficultyOptions(labels: readonly string[], skipped: boolean): string[] {
  return [...labels.map((l, i) => `${i + 1} ${l}`), ...(skipped ? [NOT_APPLICABLE] : [])];
}

function PuzzleStep({ step, phase }: PhaseScreenProps<'puzzles'>) {
  const text = useInputText(phase.text);
  const skipMin = phase.skip_min_seconds;
  const skipIn = useStudy((s) => s.skipIn);
  const intro = text ? <p className="instructions">{text}</p> : null;
  return (
    <PuzzleView
      step={step}
      title={t('puzzle.title', { n: step.position ?? 0, total: phase.count })}
      intro={intro}
      canSkip
      skipNote={skipNoteText(skipMin, skipIn)}
    />
  );
}

function RatingStep({ step, phase }: PhaseScreenProps<'puzzles'>) {
  const outcome = useStudy((s) => (step.puzzle_id ? s.outcomes[step.puzzle_id] : undefined));
  const skipped = outcome === 'skipped';
  const options = useStudy((s) => s.session?.study.language?.options);
  const items: SurveyItem[] = [
    { type: 'likert', id: 'difficulty', label: phase.rating.difficulty_label, required: true, options: difficultyOptions(phase.rating.difficulty_labels, skipped) },
    { type: 'likert', id: 'guessing', label: phase.rating.guessing_label, required: true, options: phase.rating.guessing_options },
  ];
  const lead = t(skipped ? 'rating.skipped' : outcome === 'timeout' ? 'rating.timeout' : 'rating.solved');
  return (
    <Survey
      id={`rating-${step.position}`}
      title={t('rating.title', { n: step.position ?? 0, total: phase.count })}
      text={lead}
      items={items}
      optionLabel={(itemId, option, index) => (option === NOT_APPLICABLE ? t('rating.na') : itemId === 'guessing' ? options?.[`${phase.id}.rating.guessing_options.${index}`] : undefined)}
      onSubmit={(answers) => {
        const d = String(answers.difficulty);
        submitRating(d === NOT_APPLICABLE ? null : Number(d.split(' ')[0]), String(answers.guessing));
      }}
    />
  );
}

function PuzzlesScreen(props: PhaseScreenProps<'puzzles'>) {
  return props.step.kind === 'rating' ? <RatingStep {...props} /> : <PuzzleStep {...props} />;
}

export const puzzlesPhase: PhaseModule<'puzzles'> = {
  kind: 'puzzles',
  Screen: PuzzlesScreen,
};
