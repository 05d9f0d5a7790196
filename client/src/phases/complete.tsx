// Phase kind 'complete': waits until the server holds every event, then shows the code (or redirects to the panel).
import { useEffect } from 'react';
import { finish, useStudy, useInputText } from '../study.ts';
import { TopBar } from '../ui/TopBar.tsx';
import type { PhaseModule, PhaseScreenProps } from './types.ts';

function CompleteScreen({ phase }: PhaseScreenProps<'complete'>) {
  const text = useInputText(phase.text);
  const completion = useStudy((s) => s.completion);
  const saveStatus = useStudy((s) => s.saveStatus);
  useEffect(() => {
    if (!completion) void finish();
  }, [completion]);
  useEffect(() => {
    if (completion?.redirect_url) location.assign(completion.redirect_url);
  }, [completion]);
  return (
    <section className="page complete">
      <TopBar title={phase.title} />
      <div className="page-body">
        <p className="lead">{text}</p>
        {completion ? (
          <div className="code-box">
            <p>Your completion code</p>
            <strong data-testid="completion-code">{completion.code}</strong>
            {completion.redirect_url && <p>Taking you back to the study panel…</p>}
          </div>
        ) : (
          <p data-testid="finishing" role="status">
            {saveStatus === 'offline' ? 'Waiting for the connection to send your last answers… Please keep this page open.' : 'Saving your last answers…'}
          </p>
        )}
      </div>
    </section>
  );
}

export const completePhase: PhaseModule<'complete'> = { kind: 'complete', Screen: CompleteScreen };
