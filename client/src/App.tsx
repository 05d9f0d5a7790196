// The participant app: boots the session and shows the current step's screen from the phase registry.
import { useEffect, type ComponentType } from 'react';
import type { Phase } from '../../shared/schema/config.ts';
import type { Step } from '../../shared/study/steps.ts';
import { phaseModules } from './phases/index.ts';
import { boot, currentStep, phaseOf, useStudy } from './study.ts';

function StepView() {
  useStudy((s) => s.step);
  const step = currentStep();
  const phase = phaseOf(step);
  if (!step || !phase) return <p className="page-body">This study has no further steps. Thank you!</p>;
  // The registry is indexed by kind, so the module matches the phase; TypeScript cannot see that through the union.
  const Screen = phaseModules[phase.kind].Screen as ComponentType<{ step: Step; phase: Phase }>;
  return <Screen key={step.index} step={step} phase={phase} />;
}

export function App() {
  const status = useStudy((s) => s.status);
  const error = useStudy((s) => s.error);
  const stepKind = useStudy((s) => s.steps[s.step]?.kind ?? 'none');
  useEffect(() => {
    void boot();
  }, []);
  return (
    <main className="app" data-step-kind={stepKind}>
      {status === 'loading' && (
        <p className="page-body loading" role="status">
          Loading the study…
        </p>
      )}
      {status === 'error' && (
        <div className="page-body">
          <p className="error" role="alert">
            Something went wrong: {error}
          </p>
          <p>Your answers so far are saved. Reload the page to try again, or contact the experimenter.</p>
        </div>
      )}
      {status === 'running' && <StepView />}
    </main>
  );
}
