// The participant app: boots the session and shows the current step's screen from the phase registry.
import { Suspense, useEffect, useState, type ComponentType } from 'react';
import type { Phase } from '../../shared/schema/config.ts';
import type { Step } from '../../shared/study/steps.ts';
import { phaseModules } from './phases/index.ts';
import { boot, currentStep, phaseOf, startProblem, useStudy } from './study.ts';
import { TopBar } from './ui/TopBar.tsx';
import { preloadPuzzleView } from './board/LazyPuzzleView.tsx';
import { t, useStepWords } from './i18n.ts';

function Ended({ message, testId, code }: { message: string; testId: string; code?: string }) {
  return (
    <section className="page">
      <TopBar title={t('app.thankYou')} />
      <div className="page-body">
        <p className="lead" data-testid={testId}>
          {message}
        </p>
        {code && (
          <p className="code">
            {t('app.yourCode')}<strong data-testid="end-code">{code}</strong>
          </p>
        )}
      </div>
    </section>
  );
}

/** Recruitment is closed or its target reached: a new visitor is told so, kindly (the config's text). */
function NotRecruiting() {
  const closed = useStudy((s) => s.closed);
  return (
    <section className="page">
      <TopBar title={closed?.title ?? t('app.closedTitle')} saving={false} />
      <div className="page-body">
        <p className="lead" data-testid="not-recruiting">
          {closed?.message}
        </p>
      </div>
    </section>
  );
}

/** Lab kiosk: the experimenter types the participant's label before handing over the device. */
function KioskLabel() {
  const problem = useStudy((s) => s.linkProblem);
  const [label, setLabel] = useState(() => new URLSearchParams(location.search).get('label') ?? '');
  const typed = label.trim() ? startProblem({ mode: 'kiosk', label }) : null;
  const shown = typed ?? (label === (new URLSearchParams(location.search).get('label') ?? '') ? problem : null);
  return (
    <section className="page">
      <TopBar title={t('kiosk.title')} />
      <form
        className="page-body"
        onSubmit={(e) => {
          e.preventDefault();
          const params = new URLSearchParams(location.search);
          params.set('label', label.trim());
          location.search = params.toString();
        }}
      >
        <label className="survey-item">
          <span className="legend">{t('kiosk.label')}</span>
          <input
            type="text"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            data-testid="kiosk-label"
            required
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? 'kiosk-label-problem' : undefined}
          />
        </label>
        {shown && (
          <p className="error" id="kiosk-label-problem" role="alert" data-testid="link-problem">
            {shown}
          </p>
        )}
        <div className="controls">
          <button type="submit" className="primary" data-testid="kiosk-start" disabled={!label.trim() || typed !== null}>
            {t('kiosk.start')}
          </button>
        </div>
      </form>
    </section>
  );
}

function StepView() {
  // Past consent (and on its way there), the English words of the steps must be there: they are not in the first load.
  useStepWords(useStudy((s) => s.steps[s.step]?.kind !== 'consent' || s.busy === 'sequence'));
  const screenedOut = useStudy((s) => s.screenedOut);
  const declined = useStudy((s) => s.declined);
  const endCode = useStudy((s) => s.completion?.code);
  const busy = useStudy((s) => s.busy);
  if (screenedOut !== null) return <Ended message={screenedOut} testId="screened-out" code={endCode} />;
  if (busy === 'sequence')
    return (
      <section className="page">
        <TopBar title={t('app.oneMoment')} />
        <div className="page-body">
          <p className="lead" data-testid="preparing-puzzles">
            {t('app.preparing')}
          </p>
        </div>
      </section>
    );
  const step = currentStep();
  if (declined && step?.kind !== 'consent') {
    const consent = useStudy.getState().session?.study.phases.find((p) => p.kind === 'consent');
    return <Ended message={consent?.kind === 'consent' ? consent.decline_message : t('app.declined')} testId="declined" />;
  }
  const phase = phaseOf(step);
  // Past consent, the English words of the steps must be there (they are not in the first load).
  if (!step || !phase) return <p className="page-body">{t('app.noSteps')}</p>;
  // The registry is indexed by kind, so the module matches the phase; TypeScript cannot see that through the union.
  const Screen = phaseModules[phase.kind].Screen as ComponentType<{ step: Step; phase: Phase }>;
  return <Screen key={step.index} step={step} phase={phase} />;
}

export function App() {
  const status = useStudy((s) => s.status);
  const error = useStudy((s) => s.error);
  const linkProblem = useStudy((s) => s.linkProblem);
  const hasSession = useStudy((s) => s.session !== null);
  const stepKind = useStudy((s) => (s.screenedOut !== null ? 'screened_out' : (s.steps[s.step]?.kind ?? 'none')));
  useEffect(() => {
    void boot();
    // The board's code, a moment after the first screen: read while the participant reads the consent.
    const prefetch = setTimeout(preloadPuzzleView, 3_000);
    return () => clearTimeout(prefetch);
  }, []);
  // The puzzle board's code is a chunk of its own (board/LazyPuzzleView.tsx): until it has arrived the page says so,
  // and only then does it name the step (a step is shown whole or not at all).
  return (
    <Suspense
      fallback={
        <main className="app" data-step-kind="loading">
          <p className="page-body loading" role="status">
            {t('app.loadingPuzzle')}
          </p>
        </main>
      }
    >
      <AppMain stepKind={stepKind} status={status} error={error} linkProblem={linkProblem} hasSession={hasSession} />
    </Suspense>
  );
}

function AppMain({ stepKind, status, error, linkProblem, hasSession }: { stepKind: string; status: string; error: string | null; linkProblem: string | null; hasSession: boolean }) {
  // The rarer first screens' words (a kiosk, a broken link, another window) are not in the first load either.
  useStepWords(status === 'kiosk-label' || status === 'bad-link' || status === 'elsewhere');
  return (
    <main className="app" data-step-kind={stepKind}>
      {status === 'loading' && (
        <p className="page-body loading" role="status">
          {t('app.loading')}
        </p>
      )}
      {status === 'error' && (
        <div className="page-body">
          <p className="error" role="alert">
            {t('app.error', { error: error ?? '' })}
          </p>
          <p>
            {hasSession ? t('app.errorSaved') : ''}
            {t('app.errorRetry')}
          </p>
        </div>
      )}
      {status === 'bad-link' && (
        <section className="page">
          <TopBar title={t('app.badLinkTitle')} />
          <div className="page-body">
            <p className="error" role="alert" data-testid="link-problem">
              {linkProblem}
            </p>
          </div>
        </section>
      )}
      {status === 'kiosk-label' && <KioskLabel />}
      {status === 'closed' && <NotRecruiting />}
      {status === 'elsewhere' && (
        <section className="page">
          <TopBar title={t('app.elsewhereTitle')} />
          <div className="page-body">
            <p className="lead" data-testid="elsewhere">
              {t('app.elsewhere')}
            </p>
            <div className="controls">
              <button type="button" className="primary" onClick={() => location.reload()}>
                {t('app.continueHere')}
              </button>
            </div>
          </div>
        </section>
      )}
      {status === 'running' && <StepView />}
    </main>
  );
}
