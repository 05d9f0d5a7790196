// The post-survey: ratings may be revised; ends once valid answers were submitted.
import { reasons, type PhaseRules } from './types.ts';

export const postSurveyRules: PhaseRules<'post_survey'> = {
  kind: 'post_survey',
  records: { post_survey: ['rating_revise', 'survey_submit'] },
  timed: [],
  end({ reason, facts }) {
    return reasons(['done'], reason) ?? (facts.survey ? null : 'the survey has not been submitted');
  },
};
