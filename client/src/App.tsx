// The participant app: picks the screen for the current step; the save indicator sits in the corner.
import { useEffect } from 'react';
import { boot, currentStep, phaseOf, useStudy } from './study.ts';
import { PuzzleScreen } from './screens/PuzzleScreen.tsx';
import { CompleteScreen, ConsentScreen, PostSurveyScreen, RatingScreen, SurveyScreen } from './screens/Screens.tsx';

function SaveIndicator() {
  const status = useStudy((s) => s.saveStatus);
  const label = status === 'saved' ? 'All saved' : status === 'saving' ? 'Saving…' : 'Offline: your moves are kept and will be sent';
  return (
    <div className={`save-indicator ${status}`} data-testid="save-status" data-status={status} role="status" aria-live="polite">
      {label}
    </div>
  );
}

function StepView() {
  useStudy((s) => s.step);
  const step = currentStep();
  const phase = phaseOf(step);
  if (!step || !phase) return <p>This study has no further steps.</p>;
  switch (phase.kind) {
    case 'consent':
      return <ConsentScreen phase={phase} />;
    case 'tutorial':
    case 'warmup':
      return <PuzzleScreen key={step.index} step={step} phase={phase} />;
    case 'survey':
      return <SurveyScreen key={step.index} phase={phase} />;
    case 'puzzles':
      return step.kind === 'rating' ? <RatingScreen key={step.index} step={step} phase={phase} /> : <PuzzleScreen key={step.index} step={step} phase={phase} />;
    case 'post_survey':
      return <PostSurveyScreen phase={phase} />;
    case 'complete':
      return <CompleteScreen phase={phase} />;
  }
}

export function App() {
  const status = useStudy((s) => s.phase);
  const error = useStudy((s) => s.error);
  const stepKind = useStudy((s) => s.steps[s.step]?.kind ?? 'none');
  useEffect(() => {
    void boot();
  }, []);
  return (
    <main className="app" data-step-kind={stepKind}>
      {status === 'loading' && <p>Loading the study…</p>}
      {status === 'error' && (
        <p className="error" role="alert">
          Something went wrong: {error}
        </p>
      )}
      {status === 'running' && (
        <>
          <SaveIndicator />
          <StepView />
        </>
      )}
    </main>
  );
}
