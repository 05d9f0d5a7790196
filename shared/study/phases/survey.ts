// Phase kind 'survey' (and its optional eligibility screening): one step; ends once valid answers were submitted,
// 'screened_out' exactly when they fail the study's criteria.
import { SurveyPhase } from '../../schema/phase.ts';
import { isEligible } from '../eligibility.ts';
import { answerItem, logNormal, surveyAnswers } from './simulate.ts';
import { noClock, reasons, singleStep, type PhaseModule, type PhaseSimulate } from './types.ts';

export const surveyKind: PhaseModule<'survey'> = {
  kind: 'survey',
  params: SurveyPhase,
  expand: singleStep,
  boards: [],
  capSeconds: noClock,
  skipAfterSeconds: noClock,
  records: { survey: ['survey_submit'] },
  timed: [],
  end({ phase, reason, facts }) {
    const wrong = reasons(['done', 'screened_out'], reason);
    if (wrong) return wrong;
    if (!facts.survey) return 'the survey has not been submitted';
    const eligible = !phase.eligibility || isEligible(facts.survey, phase.eligibility);
    if (reason === 'done' && !eligible) return "the answers do not meet the study's criteria";
    if (reason === 'screened_out' && eligible) return "the answers meet the study's criteria";
    return null;
  },
};

/** Answers each item after about 4 s (a noisy reading of the bot's skill), submits, and goes on. */
export const simulateSurvey: PhaseSimulate<'survey'> = ({ phase, page, rng, who }) => {
  const answers = surveyAnswers(phase, (item) => {
    page.wait(logNormal(rng, 4_000, 0.4));
    return answerItem(item, who.skill, rng);
  });
  page.log('survey_submit', { survey_id: phase.id, answers }, 'mouse');
  page.log('step_end', { kind: page.step.kind, reason: 'done' });
};
