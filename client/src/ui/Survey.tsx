// A survey form built from config items: answers kept in the form, validation messages next to each item.
import { useEffect, useState, type ReactNode } from 'react';
import type { SurveyItem } from '../../../shared/schema/config.ts';
import { answerProblems, type Answer } from '../../../shared/study/answerProblems.ts';
import { SurveyItemInput } from './SurveyItems.tsx';
import { TopBar } from './TopBar.tsx';
import { useStudy } from '../study.ts';
import { t } from '../i18n.ts';

export interface SurveyProps {
  id: string;
  title: string;
  text?: string;
  items: SurveyItem[];
  /** Blocks above the main items, each with its own header and items (the post-survey's puzzles). */
  sections?: { key: string; header: ReactNode; items: SurveyItem[] }[];
  submitLabel?: string;
  /** An option's label on screen, when it differs from the option recorded (the study's language); default: the study's translation of `<id>.<item>.options.<i>`. */
  optionLabel?: (itemId: string, option: string, index: number) => string | undefined;
  onSubmit: (answers: Record<string, Answer>) => void;
}

export function Survey({ id, title, text, items, sections = [], submitLabel = t('survey.continue'), optionLabel, onSubmit }: SurveyProps) {
  const translated = useStudy((st) => st.session?.study.language?.options);
  const labelOf = (itemId: string, option: string, index: number) => optionLabel?.(itemId, option, index) ?? translated?.[`${id}.${itemId}.options.${index}`] ?? option;
  // Answers are kept as a draft in the browser, so a reload does not lose what the participant typed.
  const sessionId = useStudy((st) => st.session?.session_id ?? 'none');
  const draftKey = `nonolab.${sessionId}.draft.${id}`;
  const [answers, setAnswers] = useState<Record<string, Answer>>(() => {
    try {
      return JSON.parse(localStorage.getItem(draftKey) ?? '{}') as Record<string, Answer>;
    } catch {
      return {};
    }
  });
  useEffect(() => {
    localStorage.setItem(draftKey, JSON.stringify(answers));
  }, [draftKey, answers]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (itemId: string, v: Answer) => {
    setAnswers((a) => ({ ...a, [itemId]: v }));
    if (errors[itemId]) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== itemId)));
  };
  const count = Object.keys(errors).length;
  return (
    <section className="page survey" data-testid={`survey-${id}`}>
      <TopBar title={title} />
      <div className="page-body">
        {text && <p className="lead">{text}</p>}
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const all = [...sections.flatMap((sec) => sec.items), ...items];
            const found = Object.fromEntries(Object.entries(answerProblems(all, answers)).map(([item, p]) => [item, t(p.key, p.args)]));
            setErrors(found);
            const first = all.find((i) => found[i.id]);
            if (first) {
              document.querySelector<HTMLElement>(`[data-testid="item-${first.id}"] input, [data-testid="item-${first.id}"] textarea, [data-testid="item-${first.id}"] select`)?.focus();
              return;
            }
            localStorage.removeItem(draftKey);
            onSubmit(answers);
          }}
        >
          {sections.map((sec) => (
            <div key={sec.key} className="survey-section card">
              {sec.header}
              {sec.items.map((item) => (
                <SurveyItemInput key={item.id} item={item} value={answers[item.id]} error={errors[item.id]} labelOf={labelOf} onChange={(v) => set(item.id, v)} />
              ))}
            </div>
          ))}
          {items.map((item) => (
            <SurveyItemInput key={item.id} item={item} value={answers[item.id]} error={errors[item.id]} labelOf={labelOf} onChange={(v) => set(item.id, v)} />
          ))}
          {count > 0 && (
            <p className="error summary" role="alert">
              {t('survey.needAnswers', { count })}
            </p>
          )}
          <div className="controls">
            <button type="submit" className="primary" data-testid="survey-submit">
              {submitLabel}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
