// Phase kind 'consent': the config's text, agree or decline; declining ends the study politely.
import { answerConsent, useStudy, useInputText } from '../study.ts';
import { preloadPuzzleView } from '../board/LazyPuzzleView.tsx';
import { TopBar } from '../ui/TopBar.tsx';
import type { PhaseModule, PhaseScreenProps } from './types.ts';

function ConsentScreen({ phase }: PhaseScreenProps<'consent'>) {
  const text = useInputText(phase.text);
  const declined = useStudy((s) => s.declined);
  return (
    <section className="page consent">
      <TopBar title={phase.title} />
      <div className="page-body">
        {declined ? (
          <p className="lead" data-testid="declined">
            {phase.decline_message}
          </p>
        ) : (
          <>
            <div className="consent-text">
              {text.split('\n\n').map((para, i) => (
                <p key={i}>{para}</p>
              ))}
            </div>
            <div className="controls">
              <button type="button" className="primary" data-testid="consent-agree" onClick={(e) => {
                  preloadPuzzleView();
                  answerConsent(true, e.detail === 0 ? 'keyboard' : 'mouse');
                }}>
                {phase.agree_label}
              </button>
              <button type="button" data-testid="consent-decline" onClick={(e) => answerConsent(false, e.detail === 0 ? 'keyboard' : 'mouse')}>
                {phase.decline_label}
              </button>
            </div>
          </>
        )}
      </div>
    </section>
  );
}

export const consentPhase: PhaseModule<'consent'> = { kind: 'consent', Screen: ConsentScreen };
