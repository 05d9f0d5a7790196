// Phase kind 'survey': items from the config (Likert, scale, choice, number, text), validated next to each item.
import { isEligible } from '../../../shared/study/eligibility.ts';
import { screenOut, submitSurvey, useInputText } from '../study.ts';
import { Survey } from '../ui/Survey.tsx';
import type { PhaseModule, PhaseScreenProps } from './types.ts';

function SurveyScreen({ phase }: PhaseScreenProps<'survey'>) {
  const text = useInputText(phase.text);
  return (
    <Survey
      id={phase.id}
      title={phase.title}
      text={text}
      items={phase.items}
      onSubmit={(answers) => {
        if (phase.eligibility && !isEligible(answers, phase.eligibility)) screenOut(phase.id, answers, phase.eligibility.message);
        else submitSurvey(phase.id, answers);
      }}
    />
  );
}

export const surveyPhase: PhaseModule<'survey'> = { kind: 'survey', Screen: SurveyScreen };
