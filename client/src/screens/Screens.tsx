// The non-board screens: consent, surveys, rating, post-survey and completion. They render and call study actions.
import { useEffect, useState } from 'react';
import type { Phase, SurveyItem } from '../../../shared/schema/config.ts';
import type { Step } from '../../../shared/study/steps.ts';
import { validateAnswers, type Answer } from '../../../shared/study/survey.ts';
import { finalRows, type SessionProgress } from '../../../shared/study/progress.ts';
import { SurveyItemInput } from './SurveyItems.tsx';
import { answerConsent, finish, puzzleOf, reviseRating, submitRating, submitSurvey, useStudy } from '../study.ts';

type PhaseOf<K extends Phase['kind']> = Extract<Phase, { kind: K }>;

export function ConsentScreen({ phase }: { phase: PhaseOf<'consent'> }) {
  const declined = useStudy((s) => s.declined);
  if (declined)
    return (
      <section>
        <h1>{phase.title}</h1>
        <p data-testid="declined">{phase.decline_message}</p>
      </section>
    );
  return (
    <section className="consent">
      <h1>{phase.title}</h1>
      <div className="consent-text">
        {phase.text.split('\n\n').map((para, i) => (
          <p key={i}>{para}</p>
        ))}
      </div>
      <div className="controls">
        <button type="button" className="primary" data-testid="consent-agree" onClick={() => answerConsent(true)}>
          {phase.agree_label}
        </button>
        <button type="button" data-testid="consent-decline" onClick={() => answerConsent(false)}>
          {phase.decline_label}
        </button>
      </div>
    </section>
  );
}

function Survey({ id, title, text, items, extra, onSubmit }: { id: string; title: string; text?: string; items: SurveyItem[]; extra?: React.ReactNode; onSubmit: (answers: Record<string, Answer>) => boolean }) {
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <section className="survey" data-testid={`survey-${id}`}>
      <h1>{title}</h1>
      {text && <p>{text}</p>}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const found = validateAnswers(items, answers);
          setErrors(found);
          if (Object.keys(found).length === 0 && !onSubmit(answers)) return;
        }}
      >
        {extra}
        {items.map((item) => (
          <SurveyItemInput key={item.id} item={item} value={answers[item.id]} error={errors[item.id]} onChange={(v) => setAnswers((a) => ({ ...a, [item.id]: v }))} />
        ))}
        <button type="submit" className="primary" data-testid="survey-submit">
          Continue
        </button>
      </form>
    </section>
  );
}

export function SurveyScreen({ phase }: { phase: PhaseOf<'survey'> }) {
  return (
    <Survey
      id={phase.id}
      title={phase.title}
      text={phase.text}
      items={phase.items}
      onSubmit={(answers) => {
        submitSurvey(phase.id, answers);
        return true;
      }}
    />
  );
}

export function RatingScreen({ step, phase }: { step: Step; phase: PhaseOf<'puzzles'> }) {
  const outcome = useStudy((s) => (step.puzzle_id ? s.outcomes[step.puzzle_id] : undefined));
  const skipped = outcome === 'skipped';
  const items: SurveyItem[] = [
    { type: 'single', id: 'difficulty', label: phase.rating.difficulty_label, required: true, options: [...phase.rating.difficulty_labels.map((l, i) => `${i + 1} ${l}`), ...(skipped ? ['N/A'] : [])] },
    { type: 'single', id: 'guessing', label: phase.rating.guessing_label, required: true, options: phase.rating.guessing_options },
  ];
  return (
    <Survey
      id={`rating-${step.position}`}
      title={`Puzzle ${step.position}: your rating`}
      text={skipped ? 'You skipped this puzzle. You may answer N/A for its difficulty.' : 'Well done! Please rate the puzzle you just solved.'}
      items={items}
      onSubmit={(answers) => {
        const d = String(answers.difficulty);
        submitRating(d === 'N/A' ? null : Number(d.split(' ')[0]), String(answers.guessing));
        return true;
      }}
    />
  );
}

function MiniBoard({ rows }: { rows: string[] }) {
  return (
    <div className="mini-board" aria-hidden="true">
      {rows.map((row, r) => (
        <div key={r} className="mini-row">
          {[...row].map((ch, c) => (
            <span key={c} className={ch === '#' ? 'filled' : ''} />
          ))}
        </div>
      ))}
    </div>
  );
}

export function PostSurveyScreen({ phase }: { phase: PhaseOf<'post_survey'> }) {
  const steps = useStudy((s) => s.steps);
  const ratings = useStudy((s) => s.ratings);
  const movesByStep = useStudy((s) => s.movesByStep);
  const puzzleSteps = steps.filter((s) => s.kind === 'puzzle');
  const whyItems: SurveyItem[] = puzzleSteps.map((s) => ({ type: 'text', id: `why_${s.puzzle_id}`, label: phase.why_label, required: true, multiline: true, max_length: 5_000 }));
  const progress: SessionProgress = { ratings, outcomes: {}, movesByStep };
  const extra = puzzleSteps.map((s) => {
    const puzzle = puzzleOf(s.puzzle_id)!;
    const rating = ratings[s.puzzle_id!]?.difficulty ?? null;
    return (
      <div key={s.index} className="post-puzzle" data-testid={`post-puzzle-${s.position}`}>
        <MiniBoard rows={finalRows(progress, s.index, puzzle.width, puzzle.height)} />
        <label>
          Puzzle {s.position} difficulty:{' '}
          <select value={rating === null ? 'na' : String(rating)} data-testid={`revise-${s.position}`} onChange={(e) => reviseRating(s.puzzle_id!, e.target.value === 'na' ? null : Number(e.target.value))}>
            {[1, 2, 3, 4, 5].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
            <option value="na">N/A</option>
          </select>
        </label>
      </div>
    );
  });
  return (
    <Survey
      id={phase.id}
      title={phase.title}
      text={phase.text}
      items={[...whyItems, ...phase.items]}
      extra={extra}
      onSubmit={(answers) => {
        submitSurvey(phase.id, answers);
        return true;
      }}
    />
  );
}

export function CompleteScreen({ phase }: { phase: PhaseOf<'complete'> }) {
  const completion = useStudy((s) => s.completion);
  useEffect(() => {
    if (!completion) void finish();
  }, [completion]);
  useEffect(() => {
    if (completion?.redirect_url) location.assign(completion.redirect_url);
  }, [completion]);
  return (
    <section className="complete">
      <h1>{phase.title}</h1>
      <p>{phase.text}</p>
      {completion ? (
        <p className="code">
          Your completion code: <strong data-testid="completion-code">{completion.code}</strong>
        </p>
      ) : (
        <p data-testid="finishing">Saving your last answers…</p>
      )}
    </section>
  );
}
