// Consent: ends 'done' after the participant agreed, 'declined' after they did not.
import { reasons, type PhaseRules } from './types.ts';

export const consentRules: PhaseRules<'consent'> = {
  kind: 'consent',
  records: { consent: ['consent'] },
  timed: [],
  end({ reason, facts }) {
    const wrong = reasons(['done', 'declined'], reason);
    if (wrong) return wrong;
    if (facts.consent === null) return 'consent has not been answered';
    if (reason === 'done' && !facts.consent) return 'the participant did not agree';
    if (reason === 'declined' && facts.consent) return 'the participant agreed';
    return null;
  },
};
