// Survey (and its optional eligibility screening): ends once valid answers were submitted; 'screened_out' exactly
// when they fail the study's criteria.
import { isEligible } from '../eligibility.ts';
import { reasons, type PhaseRules } from './types.ts';

export const surveyRules: PhaseRules<'survey'> = {
  kind: 'survey',
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
