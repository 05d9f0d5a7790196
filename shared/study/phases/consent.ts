// Phase kind 'consent': one step; ends 'done' after the participant agreed, 'declined' after they did not.
import { ConsentPhase } from '../../schema/phase.ts';
import { logNormal } from './simulate.ts';
import { noClock, reasons, singleStep, type PhaseModule, type PhaseSimulate } from './types.ts';

export const consentKind: PhaseModule<'consent'> = {
  kind: 'consent',
  params: ConsentPhase,
  expand: singleStep,
  boards: [],
  capSeconds: noClock,
  skipAfterSeconds: noClock,
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

/** Reads the form for about 15 s and agrees. */
export const simulateConsent: PhaseSimulate<'consent'> = ({ page, rng }) => {
  page.wait(logNormal(rng, 15_000, 0.4));
  page.log('consent', { agreed: true }, 'mouse');
  page.log('step_end', { kind: page.step.kind, reason: 'done' });
};
