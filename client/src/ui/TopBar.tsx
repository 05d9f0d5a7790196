// The strip above every screen: study title or step title, the countdown of a capped step, and the save indicator.
import { useEffect, useRef } from 'react';
import { formatClock } from '../../../shared/study/timing.ts';
import { useStudy } from '../study.ts';
import { t } from '../i18n.ts';

export function SaveIndicator() {
  const status = useStudy((s) => s.saveStatus);
  // The session has ended on the server: nothing is pending, and nothing more will be sent.
  if (status === 'ended') return null;
  const label = t(status === 'saved' ? 'save.saved' : status === 'saving' ? 'save.saving' : 'save.offline');
  return (
    <div className={`save-indicator ${status}`} data-testid="save-status" data-status={status} role="status" aria-live="polite" title={label}>
      <span className="dot" aria-hidden="true" />
      <span className="save-label">{label}</span>
      {status === 'offline' && (
        <span className="save-label-short" aria-hidden="true">
          {t('save.offlineShort')}
        </span>
      )}
    </div>
  );
}

export function Countdown() {
  const left = useStudy((s) => s.secondsLeft);
  if (left === null) return null;
  return (
    <div className={`countdown${left <= 30 ? ' low' : ''}`} data-testid="countdown" role="timer" aria-label={t('countdown.label', { time: formatClock(left) })}>
      {formatClock(left)}
    </div>
  );
}

/** `saving: false` on a screen with no session behind it (nothing to save, so no indicator). */
export function TopBar({ title, progress, saving = true }: { title: string; progress?: string; saving?: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A new screen: move focus to its heading (unless something on it already has focus), so keyboard and
  // screen-reader users start at the top of the step rather than on a button that is gone.
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <header className="topbar">
      <div className="topbar-title">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {progress && <span className="progress">{progress}</span>}
      </div>
      <Countdown />
      {saving && <SaveIndicator />}
    </header>
  );
}
