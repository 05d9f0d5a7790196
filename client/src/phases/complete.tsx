// Phase kind 'complete': waits until the server holds every event, then shows the code (or redirects to the panel).
import { useEffect, useState } from 'react';
import { finish, useStudy, useInputText } from '../study.ts';
import { TopBar } from '../ui/TopBar.tsx';
import { t } from '../i18n.ts';
import type { PhaseModule, PhaseScreenProps } from './types.ts';

/** Put `text` on the clipboard: the Clipboard API where the page may use it, else a selected text area and copy. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Not allowed here (an insecure origin, a denied permission): try the old way.
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

/** The completion code, with a button that copies it (to paste into the panel's form). */
export function CompletionCode({ code, redirecting }: { code: string; redirecting: boolean }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  return (
    <div className="code-box">
      <p>{t('complete.codeHeading')}</p>
      <strong data-testid="completion-code">{code}</strong>
      <div className="controls">
        <button type="button" data-testid="copy-code" onClick={async () => setCopied((await copyText(code)) ? 'yes' : 'no')}>
          {t(copied === 'yes' ? 'complete.copied' : 'complete.copy')}
        </button>
      </div>
      <p role="status" className="note" data-testid="copy-status">
        {copied === 'yes' ? t('complete.copiedNote') : copied === 'no' ? t('complete.copyFailed') : ''}
      </p>
      {redirecting && <p>{t('complete.redirecting')}</p>}
    </div>
  );
}

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
          <CompletionCode code={completion.code} redirecting={Boolean(completion.redirect_url)} />
        ) : (
          <p data-testid="finishing" role="status">
            {t(saveStatus === 'offline' ? 'complete.waitingOffline' : 'complete.saving')}
          </p>
        )}
      </div>
    </section>
  );
}

export const completePhase: PhaseModule<'complete'> = { kind: 'complete', Screen: CompleteScreen };
